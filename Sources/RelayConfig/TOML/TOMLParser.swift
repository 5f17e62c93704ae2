/// A recursive-descent reader over the document's bytes. Recursion happens only for
/// arrays and inline tables, and stops at `limits.maximumDepth`.
struct TOMLParser {
    let bytes: [UInt8]
    let file: String
    let limits: TOMLLimits
    var index = 0
    private var locator = Locator()
    let root = TOMLTreeTable(origin: .root, position: TOMLPosition(line: 1, column: 1))
    private var current: TOMLTreeTable
    /// The names of the current `[header]`, which prefix keys in messages.
    private var currentPath: [String] = []

    /// One component of a key, with where it was written.
    struct KeyPart {
        var name: String
        var offset: Int
        var position: TOMLPosition
    }

    init(bytes: [UInt8], file: String, limits: TOMLLimits) {
        self.bytes = bytes
        self.file = file
        self.limits = limits
        current = root
    }

    mutating func parseDocument() throws(TOMLSyntaxError) -> TOMLTable {
        if let bad = TOMLSyntax.firstInvalidUTF8(bytes) {
            throw error("the file is not valid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)))", at: bad)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            // A byte order mark is no column of the first line.
            index = 3
            locator = Locator(start: 3)
        }
        while true {
            skipSpaces()
            guard let byte = peek() else { break }
            switch byte {
            case TOMLSyntax.hash, TOMLSyntax.lineFeed, TOMLSyntax.carriageReturn:
                try endLine(after: "")
            case UInt8(ascii: "["):
                let name = try parseHeader()
                try endLine(after: " after the table header [\(name)]")
            default:
                let name = try parseKeyValue()
                try endLine(after: " after the value of '\(name)'")
            }
        }
        return root.freeze()
    }

    // MARK: Lines, spaces and comments

    func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    mutating func skipSpaces() {
        while let byte = peek(), byte == TOMLSyntax.space || byte == TOMLSyntax.tab { index += 1 }
    }

    /// Spaces, line ends and comments, as allowed between an array's elements.
    mutating func skipSpacesLinesAndComments() throws(TOMLSyntaxError) {
        while let byte = peek() {
            switch byte {
            case TOMLSyntax.space, TOMLSyntax.tab, TOMLSyntax.lineFeed: index += 1
            case TOMLSyntax.carriageReturn: try consumeNewline()
            case TOMLSyntax.hash: try skipComment()
            default: return
            }
        }
    }

    /// Consumes `\n` or `\r\n`; a lone carriage return is an error.
    mutating func consumeNewline() throws(TOMLSyntaxError) {
        if peek() == TOMLSyntax.carriageReturn {
            guard peek(1) == TOMLSyntax.lineFeed else {
                throw error("a carriage return must be followed by a line feed")
            }
            index += 2
        } else if peek() == TOMLSyntax.lineFeed {
            index += 1
        }
    }

    private mutating func skipComment() throws(TOMLSyntaxError) {
        index += 1
        while let byte = peek(), byte != TOMLSyntax.lineFeed {
            if byte == TOMLSyntax.carriageReturn, peek(1) == TOMLSyntax.lineFeed { return }
            if TOMLSyntax.isForbiddenControl(byte) {
                throw error("control character \(Self.scalarName(byte)) in a comment")
            }
            index += 1
        }
    }

    /// Ends a line: optional spaces and comment, then a line end or the end of the file.
    private mutating func endLine(after context: String) throws(TOMLSyntaxError) {
        skipSpaces()
        if peek() == TOMLSyntax.hash { try skipComment() }
        guard let byte = peek() else { return }
        guard byte == TOMLSyntax.lineFeed || byte == TOMLSyntax.carriageReturn else {
            throw error("expected the end of the line\(context), found \(found())")
        }
        try consumeNewline()
    }

    // MARK: Tables and keys

    /// `[a.b]`: makes that table the one the following keys go into.
    private mutating func parseHeader() throws(TOMLSyntaxError) -> String {
        let start = index
        index += 1
        if peek() == UInt8(ascii: "[") {
            throw error(
                "arrays of tables ([[…]]) are not supported in Relay's configuration files; use one [table] per section",
                at: start)
        }
        let parts = try parseKey()
        let name = Self.dotted(parts)
        skipSpaces()
        guard peek() == UInt8(ascii: "]") else {
            throw error("expected ']' to close the table header [\(name), found \(found())")
        }
        index += 1
        guard parts.count <= limits.maximumDepth else {
            throw error("the table [\(name)] is nested deeper than \(limits.maximumDepth) levels", at: start)
        }
        current = try defineTable(parts)
        currentPath = parts.map(\.name)
        return name
    }

    /// `key = value` into the current table; returns the key as written, for messages.
    private mutating func parseKeyValue() throws(TOMLSyntaxError) -> String {
        let parts = try parseKey()
        let name = Self.dotted(parts)
        try expectEquals(after: name)
        let path = currentPath + parts.map(\.name)
        let value = try parseValue(depth: path.count, path: path, context: "for the key '\(name)'")
        try insert(value, at: parts, into: current, under: currentPath)
        return name
    }

    mutating func expectEquals(after name: String) throws(TOMLSyntaxError) {
        skipSpaces()
        guard peek() == UInt8(ascii: "=") else {
            throw error("expected '=' after the key '\(name)', found \(found())")
        }
        index += 1
        skipSpaces()
    }

    /// A key of one or more parts separated by dots: bare, "basic" or 'literal'.
    mutating func parseKey() throws(TOMLSyntaxError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            skipSpaces()
            let start = index
            let position = locate(start)
            let name: String
            switch peek() {
            case TOMLSyntax.quote?, TOMLSyntax.apostrophe?:
                if peek(1) == peek(), peek(2) == peek() {
                    throw error("a key cannot be a multi-line string")
                }
                name = try peek() == TOMLSyntax.quote ? parseBasicString() : parseLiteralString()
            case let byte? where TOMLSyntax.isBareKeyByte(byte):
                while let next = peek(), TOMLSyntax.isBareKeyByte(next) { index += 1 }
                name = String(decoding: bytes[start..<index], as: UTF8.self)
            default:
                let what = parts.isEmpty ? "a key" : "a key after '\(Self.dotted(parts)).'"
                throw error("expected \(what) (letters, digits, '_' and '-', or a quoted string), found \(found())")
            }
            parts.append(KeyPart(name: name, offset: start, position: position))
            skipSpaces()
            guard peek() == UInt8(ascii: ".") else { return parts }
            index += 1
        }
    }

    // MARK: Errors and positions

    /// An error at `offset` (the current position by default).
    mutating func error(_ message: String, at offset: Int? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(file: file, position: locate(offset ?? index), message: message)
    }

    /// Where `offset` is; cheap when called with growing offsets, as the reader does.
    mutating func locate(_ offset: Int) -> TOMLPosition {
        locator.position(of: offset, in: bytes)
    }

    /// What is at the current position, for "found …" in messages.
    func found() -> String {
        guard let byte = peek() else { return "the end of the file" }
        if byte == TOMLSyntax.lineFeed || byte == TOMLSyntax.carriageReturn { return "the end of the line" }
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return Self.scalarName(byte) }
        // A multi-byte character: the document is valid UTF-8, so it decodes.
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: bytes[index..<end], as: UTF8.self) + "'"
    }

    static func scalarName(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    static func dotted(_ parts: [KeyPart]) -> String {
        dotted(parts.map(\.name))
    }

    static func dotted(_ names: [String]) -> String {
        names.map(TOMLWriter.key).joined(separator: ".")
    }

    /// Line and column of byte offsets, computed by scanning forward from the last answer.
    private struct Locator {
        var start = 0
        var offset = 0
        var line = 1
        var column = 1

        init(start: Int = 0) {
            self.start = start
            offset = start
        }

        mutating func position(of target: Int, in bytes: [UInt8]) -> TOMLPosition {
            if target < offset { self = Locator(start: start) }
            let end = min(target, bytes.count)
            while offset < end {
                let byte = bytes[offset]
                if byte == TOMLSyntax.lineFeed {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                offset += 1
            }
            return TOMLPosition(line: line, column: column)
        }
    }
}
