/// Values: the dispatch on the first character, arrays and inline tables.
extension TOMLParser {
    /// The value at the current position; `depth` is how deep it sits in the document,
    /// `path` is the key it belongs to, and `context` ("for the key 'x'", "in the array")
    /// goes into messages.
    mutating func parseValue(depth: Int, path: [String], context: String) throws(TOMLSyntaxError) -> TOMLValue {
        guard depth <= limits.maximumDepth else {
            throw error("the value \(context) is nested deeper than \(limits.maximumDepth) levels")
        }
        switch peek() {
        case TOMLSyntax.quote?:
            if peek(1) == TOMLSyntax.quote, peek(2) == TOMLSyntax.quote { return .string(try parseMultiLineString()) }
            return .string(try parseBasicString())
        case TOMLSyntax.apostrophe?:
            if peek(1) == TOMLSyntax.apostrophe, peek(2) == TOMLSyntax.apostrophe {
                return .string(try parseMultiLineString())
            }
            return .string(try parseLiteralString())
        case UInt8(ascii: "[")?:
            return try parseArray(depth: depth, path: path)
        case UInt8(ascii: "{")?:
            return try parseInlineTable(depth: depth, path: path)
        default:
            return try parseScalar(context: context)
        }
    }

    /// `[a, b, …]`, over several lines if need be, with comments and a trailing comma.
    private mutating func parseArray(depth: Int, path: [String]) throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        index += 1
        var elements: [TOMLValue] = []
        while true {
            try skipSpacesLinesAndComments()
            if peek() == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            elements.append(try parseValue(depth: depth + 1, path: path, context: "in the array"))
            try skipSpacesLinesAndComments()
            switch peek() {
            case UInt8(ascii: ",")?:
                index += 1
            case UInt8(ascii: "]")?:
                index += 1
                return .array(elements)
            case nil:
                throw error("the array that starts at \(locate(start)) is not closed; expected ']'")
            default:
                throw error("expected ',' or ']' in the array, found \(found())")
            }
        }
    }

    /// `{ a = 1, b.c = "x" }`: on one line, without a trailing comma (TOML 1.0).
    private mutating func parseInlineTable(depth: Int, path: [String]) throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        index += 1
        let table = TOMLTreeTable(origin: .dotted, position: locate(start))
        skipSpaces()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .table(table.freeze())
        }
        while true {
            let parts = try parseKey()
            let name = Self.dotted(parts)
            try expectEquals(after: name)
            let inner = path + parts.map(\.name)
            let value = try parseValue(depth: depth + parts.count, path: inner, context: "for the key '\(Self.dotted(inner))'")
            try insert(value, at: parts, into: table, under: path)
            skipSpaces()
            switch peek() {
            case UInt8(ascii: ",")?:
                index += 1
                skipSpaces()
                if peek() == UInt8(ascii: "}") {
                    throw error("an inline table cannot end with a comma; remove the ',' before '}'")
                }
            case UInt8(ascii: "}")?:
                index += 1
                return .table(table.freeze())
            case TOMLSyntax.lineFeed?, TOMLSyntax.carriageReturn?, TOMLSyntax.hash?, nil:
                throw error("the inline table that starts at \(locate(start)) must be closed with '}' on the same line")
            default:
                throw error("expected ',' or '}' in the inline table, found \(found())")
            }
        }
    }

    /// Booleans and numbers: the run of characters up to the next separator, classified.
    private mutating func parseScalar(context: String) throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        while let byte = peek(), TOMLNumber.isTokenByte(byte) { index += 1 }
        let token = Array(bytes[start..<index])
        let text = String(decoding: token, as: UTF8.self)
        if token.isEmpty {
            throw error("expected a value \(context) (a string, number, boolean, array or inline table), found \(found())")
        }
        if text == "true" { return .boolean(true) }
        if text == "false" { return .boolean(false) }
        if TOMLNumber.looksLikeDateOrTime(token) {
            throw error(
                "dates and times are not supported in Relay's configuration files; write '\(text)' as a quoted string",
                at: start)
        }
        switch TOMLNumber.parse(token) {
        case .success(let value):
            return value
        case .failure(let problem):
            if let first = token.first, first >= UInt8(ascii: "A"), !["inf", "nan"].contains(text) {
                throw error("expected a value \(context), found '\(text)'; text needs quotes: \(TOMLWriter.quoted(text))", at: start)
            }
            throw error("'\(text)' is not a valid number: \(problem.reason)", at: start)
        }
    }
}
