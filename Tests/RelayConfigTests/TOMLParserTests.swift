import RelayConfig
import Testing

@Suite struct TOMLParserTests {
    @Test func readsEveryConstructOfTheSubset() throws {
        let text = #"""
            # A comment line, then keys of every kind.
            bare_key-1 = "basic \"quoted\" \\ \t tab \u00E9 \U0001F600"   # trailing comment
            "quoted key" = 'C:\literal\path'
            'literal key' = true
            site."google.com".visits = 0xFF_FF
            site . "google.com" . name = "G"
            numbers = [ +99, -17, 0, 1_000, 0xDEAD_beef, 0o755, 0b1101, -9_223_372_036_854_775_808 ]
            floats = [ 1.0, -0.01, 5e+22, 1e06, -2E-2, 6.626e-34, 224_617.445_991, inf, -inf, nan ]
            multi = """
            Roses are red
              Violets are \
                 blue"""
            raw = '''
            first 'line'
            second ''line'''''
            quotes = """"two" ""x"" """
            mixed = [
              1,           # comments between elements
              "two",
              [3.0, [false]],
              { inner = "table" },
            ]
            inline = { x = 1, y.z = "dotted", nested = { deep = [] } }
            empty = {}

            [server]
            host = "localhost"

            [server.limits]   # a sub-table after its parent
            connections = 10

            [implicit.child]
            value = 1
            [implicit]
            later = "defined after its child"
            """#
        let table = try TOML.parse(text)
        #expect(table.keys == [
            "bare_key-1", "quoted key", "literal key", "site", "numbers", "floats", "multi", "raw", "quotes", "mixed",
            "inline", "empty", "server", "implicit",
        ])
        #expect(table["bare_key-1"] == .string("basic \"quoted\" \\ \t tab é 😀"))
        #expect(table["quoted key"] == .string(#"C:\literal\path"#))
        #expect(table["literal key"] == .boolean(true))
        #expect(table.value(at: ["site", "google.com", "visits"]) == .integer(0xFFFF))
        #expect(table.value(at: ["site", "google.com", "name"]) == .string("G"))
        #expect(table["numbers"] == .array([
            .integer(99), .integer(-17), .integer(0), .integer(1000), .integer(0xDEAD_BEEF), .integer(0o755),
            .integer(0b1101), .integer(Int64.min),
        ]))
        #expect(table["floats"] == .array([
            .float(1), .float(-0.01), .float(5e22), .float(1e6), .float(-0.02), .float(6.626e-34), .float(224_617.445_991),
            .float(.infinity), .float(-.infinity), .float(.nan),
        ]))
        #expect(table["multi"] == .string("Roses are red\n  Violets are blue"))
        #expect(table["raw"] == .string("first 'line'\nsecond ''line''"))
        #expect(table["quotes"] == .string("\"two\" \"\"x\"\" "))
        #expect(table["mixed"] == .array([
            .integer(1), .string("two"), .array([.float(3), .array([.boolean(false)])]),
            .table(TOMLTable(["inner": .string("table")])),
        ]))
        #expect(table.value(at: ["inline", "y", "z"]) == .string("dotted"))
        #expect(table.value(at: ["inline", "nested", "deep"]) == .array([]))
        #expect(table["empty"] == .table(TOMLTable()))
        #expect(table.value(at: ["server", "limits", "connections"]) == .integer(10))
        #expect(table.value(at: ["implicit", "later"]) == .string("defined after its child"))
        guard case .table(let implicit)? = table["implicit"] else { throw Unexpected() }
        #expect(implicit.keys == ["child", "later"], "a table keeps the order keys were first defined in")
    }

    @Test func keysRememberWhereTheyWereWritten() throws {
        let table = try TOML.parse("# héader\n\n  name = 1\n[link]\n\theartbeat = 2\n")
        #expect(table.position(of: "name") == TOMLPosition(line: 3, column: 3))
        guard case .table(let link)? = table["link"] else { throw Unexpected() }
        #expect(table.position(of: "link") == TOMLPosition(line: 4, column: 2))
        #expect(link.position(of: "heartbeat") == TOMLPosition(line: 5, column: 2), "a tab is one column")
    }

    @Test func windowsLineEndingsAndAByteOrderMarkAreRead() throws {
        let table = try TOML.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("a = 1\r\nb = \"\"\"\r\nx\r\ny\"\"\"\r\n".utf8))
        #expect(table["a"] == .integer(1))
        #expect(table["b"] == .string("x\ny"))
        #expect(table.position(of: "a") == TOMLPosition(line: 1, column: 1), "the byte order mark is not a column")
    }

    @Test func aDocumentSurvivesTheWritersRoundTrip() throws {
        let text = #"""
            a = "tab\tquote\"newline\ncontrol\u0001 del\u007F é"
            "key with space" = [1, 2.5, -0.0, inf, nan, 1e300, true, [], {}]
            b.c.d = { e = 'x', "f.g" = [ { h = 1 } ] }
            [t]
            "" = "empty key"
            """#
        let table = try TOML.parse(text)
        let written = TOMLWriter.document(table)
        #expect(try TOML.parse(written) == table, "\(written)")
    }

    /// Broken documents: each error names the line, the column and what was expected.
    @Test(arguments: [
        ("heartbeat 5", "1:11: expected '=' after the key 'heartbeat', found '5'"),
        ("[link]\nheartbeat_seconds", "2:18: expected '=' after the key 'heartbeat_seconds', found the end of the file"),
        ("a = 1 2", "1:7: expected the end of the line after the value of 'a', found '2'"),
        ("a =", "1:4: expected a value for the key 'a' (a string, number, boolean, array or inline table), found the end of the file"),
        ("a = hello", "1:5: expected a value for the key 'a', found 'hello'; text needs quotes: \"hello\""),
        ("= 1", "1:1: expected a key (letters, digits, '_' and '-', or a quoted string), found '='"),
        ("a. = 1", "1:4: expected a key after 'a.' (letters, digits, '_' and '-', or a quoted string), found '='"),
        ("a = 1\na = 2", "2:1: the key 'a' is defined twice; first at line 1"),
        ("[t]\n[t]", "2:2: the table [t] is defined twice; first at line 1"),
        ("a.b = 1\n[a]", "2:2: the table [a] was already created by dotted keys at line 1"),
        ("[a.b.c]\n[a]\nb.c.t = 1", "3:1: dotted keys cannot add to the table [a.b], which a header defines; write the key under [a.b]"),
        ("a = { b = 1 }\na.c = 2", "2:1: the inline table 'a' (line 1) cannot be extended"),
        ("a = { b = 1 }\n[a.c]", "2:2: the table [a] was written as an inline table at line 1 and cannot be extended"),
        ("a = 1\na.b = 2", "2:1: 'a' is already a value (line 1), so it cannot hold keys"),
        ("a = 1\n[a]", "2:2: 'a' is already a value (line 1), so it cannot be a table"),
        ("[[servers]]", "1:1: arrays of tables ([[…]]) are not supported in Relay's configuration files; use one [table] per section"),
        ("[a", "1:3: expected ']' to close the table header [a, found the end of the file"),
        ("a = [1, 2", "1:10: the array that starts at 1:5 is not closed; expected ']'"),
        ("a = [1 2]", "1:8: expected ',' or ']' in the array, found '2'"),
        ("a = [1,,]", "1:8: expected a value in the array (a string, number, boolean, array or inline table), found ','"),
        ("a = { b = 1, }", "1:14: an inline table cannot end with a comma; remove the ',' before '}'"),
        ("a = { b = 1\n}", "1:12: the inline table that starts at 1:5 must be closed with '}' on the same line"),
        ("a = \"open", "1:10: the string that starts at 1:5 is not closed; expected '\"'"),
        ("a = \"two\nlines\"", "1:9: a string must end on its line; expected '\"' (use \"\"\" for text over several lines)"),
        ("a = '''never closed", "1:20: the multi-line string that starts at 1:5 is not closed; expected '''"),
        ("a = \"\"\"x\"\"\"\"\"\"", "1:14: too many quotes at the end of a multi-line string"),
        ("a = \"\\q\"", "1:6: unknown escape '\\q'; the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX and \\UXXXXXXXX"),
        ("a = \"\\u12\"", "1:6: \\u needs exactly 4 hexadecimal digits"),
        ("a = \"\\uD800\"", "1:6: \\uD800 is not a Unicode scalar value (surrogates and values above 10FFFF are not)"),
        ("a = \"x\u{01}\"", "1:7: control character U+0001 in a string; write it in a \"basic\" string as \\u0001"),
        ("a = 1 # bell\u{07}", "1:13: control character U+0007 in a comment"),
        ("a = 1\rb = 2", "1:6: a carriage return must be followed by a line feed"),
        ("a = 012", "1:5: '012' is not a valid number: leading zeros are not allowed"),
        ("a = 1__2", "1:5: '1__2' is not a valid number: an underscore must stand between two digits"),
        ("a = 1_", "1:5: '1_' is not a valid number: an underscore must stand between two digits"),
        ("a = 1.", "1:5: '1.' is not a valid number: digits are missing after '.'"),
        ("a = .5", "1:5: '.5' is not a valid number: digits are missing"),
        ("a = 1e", "1:5: '1e' is not a valid number: the exponent has no digits"),
        ("a = +0x10", "1:5: '+0x10' is not a valid number: a hexadecimal integer cannot have a sign"),
        ("a = 0xG", "1:5: '0xG' is not a valid number: 'G' is not a hexadecimal digit"),
        ("a = 9223372036854775808", "1:5: '9223372036854775808' is not a valid number: it does not fit in a 64-bit integer"),
        ("a = 1979-05-27", "1:5: dates and times are not supported in Relay's configuration files; write '1979-05-27' as a quoted string"),
        ("a = 07:32:00", "1:5: dates and times are not supported in Relay's configuration files; write '07:32:00' as a quoted string"),
        ("\"\"\"k\"\"\" = 1", "1:1: a key cannot be a multi-line string"),
    ])
    func brokenDocumentsAreReportedWhereTheyBreak(text: String, expected: String) {
        #expect(throws: TOMLSyntaxError.self) { try TOML.parse(text, file: "t.toml") }
        do {
            _ = try TOML.parse(text, file: "t.toml")
        } catch {
            #expect(error.description == "t.toml:" + expected)
        }
    }

    @Test func invalidUTF8IsReportedAtItsByte() {
        do {
            _ = try TOML.parse(bytes: Array("a = \"é".utf8) + [0xFF, 0x22], file: "t.toml")
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.description == "t.toml:1:7: the file is not valid UTF-8 (byte 0xFF)")
        }
    }

    @Test func nestingAndSizeAreBounded() {
        let limits = TOMLLimits(maximumBytes: 1 << 20, maximumDepth: 32)
        let deepArray = "a = " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(throws: TOMLSyntaxError.self) { try TOML.parse(deepArray, limits: limits) }
        let justDeepEnough = "a = " + String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
        #expect((try? TOML.parse(justDeepEnough, limits: limits)) != nil)
        let deepHeader = "[" + Array(repeating: "a", count: 33).joined(separator: ".") + "]"
        #expect(throws: TOMLSyntaxError.self) { try TOML.parse(deepHeader, limits: limits) }
        let deepDotted = "[a.b]\n" + Array(repeating: "k", count: 31).joined(separator: ".") + " = 1"
        #expect(throws: TOMLSyntaxError.self) { try TOML.parse(deepDotted, limits: limits) }
        // A million nested arrays would overflow the stack without the limit.
        let hostile = "a = " + String(repeating: "[", count: 1_000_000)
        #expect(throws: TOMLSyntaxError.self) { try TOML.parse(hostile) }
        do {
            _ = try TOML.parse(String(repeating: "#", count: (1 << 20) + 1), file: "big.toml")
            Issue.record("an oversized document was accepted")
        } catch {
            #expect(error.description == "big.toml:1:1: the file has 1048577 bytes; a configuration file may have at most 1048576")
        }
    }
}

struct Unexpected: Error {}

@Suite struct TOMLKeyEdgeCaseTests {
    @Test func keysAndHeadersAcceptWhatTOMLAllows() throws {
        let table = try TOML.parse(#"""
            3.14159 = "pi"
            "" = "empty"
            [ spaced . "header" ]	# tab before the comment
            1234 = true
            [a."b.c".'d']
            """#)
        #expect(table.value(at: ["3", "14159"]) == .string("pi"))
        #expect(table[""] == .string("empty"))
        #expect(table.value(at: ["spaced", "header", "1234"]) == .boolean(true))
        #expect(table.value(at: ["a", "b.c", "d"]) == .table(TOMLTable()))
    }

    @Test func anInlineTableNamesItsKeysInFull() {
        do {
            _ = try TOML.parse("[s]\nt = { b = 1, b = 2 }", file: "t.toml")
            Issue.record("a duplicate key in an inline table was accepted")
        } catch {
            #expect(error.description == "t.toml:2:14: the key 's.t.b' is defined twice; first at line 2")
        }
    }

    @Test func dottedKeysMayExtendOnlyWhatDottedKeysCreated() throws {
        let table = try TOML.parse("""
            [fruit]
            apple.color = "red"
            apple.taste.sweet = true
            [fruit.apple.texture]
            smooth = true
            """)
        #expect(table.value(at: ["fruit", "apple", "taste", "sweet"]) == .boolean(true))
        #expect(table.value(at: ["fruit", "apple", "texture", "smooth"]) == .boolean(true))
        #expect(throws: TOMLSyntaxError.self) { try TOML.parse("[fruit]\napple.color = \"red\"\n[fruit.apple]") }
    }
}
