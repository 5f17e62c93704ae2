/// Strings: "basic" with escapes, 'literal' without, and both forms over several lines.
extension TOMLParser {
    /// A basic string on one line; the current byte is its opening quote.
    mutating func parseBasicString() throws(TOMLSyntaxError) -> String {
        let start = index
        index += 1
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw error("the string that starts at \(locate(start)) is not closed; expected '\"'")
            }
            switch byte {
            case TOMLSyntax.quote:
                index += 1
                return String(decoding: text, as: UTF8.self)
            case TOMLSyntax.backslash:
                try parseEscape(into: &text)
            case TOMLSyntax.lineFeed, TOMLSyntax.carriageReturn:
                throw error("a string must end on its line; expected '\"' (use \"\"\" for text over several lines)")
            default:
                try appendPlain(byte, to: &text, in: "a string")
            }
        }
    }

    /// A literal string on one line: no escapes; the current byte is its opening apostrophe.
    mutating func parseLiteralString() throws(TOMLSyntaxError) -> String {
        let start = index
        index += 1
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw error("the string that starts at \(locate(start)) is not closed; expected \"'\"")
            }
            switch byte {
            case TOMLSyntax.apostrophe:
                index += 1
                return String(decoding: text, as: UTF8.self)
            case TOMLSyntax.lineFeed, TOMLSyntax.carriageReturn:
                throw error("a literal string must end on its line; expected \"'\" (use ''' for text over several lines)")
            default:
                try appendPlain(byte, to: &text, in: "a string")
            }
        }
    }

    /// `"""…"""` or `'''…'''`; a line end right after the opening is dropped, and in the basic
    /// form a backslash at the end of a line joins it to the next non-blank character.
    mutating func parseMultiLineString() throws(TOMLSyntaxError) -> String {
        let start = index
        let delimiter = bytes[index]
        let escapes = delimiter == TOMLSyntax.quote
        index += 3
        if peek() == TOMLSyntax.lineFeed || peek() == TOMLSyntax.carriageReturn { try consumeNewline() }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                let close = escapes ? "\"\"\"" : "'''"
                throw error("the multi-line string that starts at \(locate(start)) is not closed; expected \(close)")
            }
            switch byte {
            case delimiter:
                var run = 0
                while peek(run) == delimiter { run += 1 }
                index += run
                guard run >= 3 else {
                    text.append(contentsOf: repeatElement(delimiter, count: run))
                    continue
                }
                // Up to two quotes may stand just before the closing three.
                guard run <= 5 else { throw error("too many quotes at the end of a multi-line string", at: index - run + 5) }
                text.append(contentsOf: repeatElement(delimiter, count: run - 3))
                return String(decoding: text, as: UTF8.self)
            case TOMLSyntax.lineFeed, TOMLSyntax.carriageReturn:
                try consumeNewline()
                text.append(TOMLSyntax.lineFeed)
            case TOMLSyntax.backslash where escapes:
                if try !skipLineEndingBackslash() { try parseEscape(into: &text) }
            default:
                try appendPlain(byte, to: &text, in: "a string")
            }
        }
    }

    /// At a backslash followed by optional blanks and a line end: skips all blanks and line
    /// ends after it and returns `true`; otherwise moves nothing and returns `false`.
    private mutating func skipLineEndingBackslash() throws(TOMLSyntaxError) -> Bool {
        var look = 1
        while peek(look) == TOMLSyntax.space || peek(look) == TOMLSyntax.tab { look += 1 }
        guard peek(look) == TOMLSyntax.lineFeed || peek(look) == TOMLSyntax.carriageReturn else { return false }
        index += look
        while let byte = peek() {
            switch byte {
            case TOMLSyntax.space, TOMLSyntax.tab: index += 1
            case TOMLSyntax.lineFeed, TOMLSyntax.carriageReturn: try consumeNewline()
            default: return true
            }
        }
        return true
    }

    /// One escape sequence; the current byte is the backslash.
    private mutating func parseEscape(into text: inout [UInt8]) throws(TOMLSyntaxError) {
        let start = index
        index += 1
        guard let code = peek() else { throw error("a string ends in the middle of an escape") }
        index += 1
        switch code {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case TOMLSyntax.quote: text.append(TOMLSyntax.quote)
        case TOMLSyntax.backslash: text.append(TOMLSyntax.backslash)
        case UInt8(ascii: "u"): try appendScalar(hexDigits: 4, into: &text, escapeStart: start)
        case UInt8(ascii: "U"): try appendScalar(hexDigits: 8, into: &text, escapeStart: start)
        default:
            index -= 1
            throw error(
                "unknown escape '\\\(found().trimmingQuotes)'; the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX and \\UXXXXXXXX",
                at: start)
        }
    }

    private mutating func appendScalar(hexDigits: Int, into text: inout [UInt8], escapeStart: Int) throws(TOMLSyntaxError) {
        var value: UInt32 = 0
        for _ in 0..<hexDigits {
            guard let byte = peek(), let digit = TOMLNumber.digitValue(byte, radix: 16) else {
                throw error("\\\(hexDigits == 4 ? "u" : "U") needs exactly \(hexDigits) hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            let written = String(bytes[escapeStart..<index].map { Character(Unicode.Scalar($0)) })
            throw error("\(written) is not a Unicode scalar value (surrogates and values above 10FFFF are not)", at: escapeStart)
        }
        UTF8.encode(scalar) { text.append($0) }
    }

    /// A character taken as it is, unless it is a control character TOML forbids.
    private mutating func appendPlain(_ byte: UInt8, to text: inout [UInt8], in place: String) throws(TOMLSyntaxError) {
        guard !TOMLSyntax.isForbiddenControl(byte) else {
            throw error("control character \(Self.scalarName(byte)) in \(place); write it in a \"basic\" string as \\u\(Self.scalarName(byte).dropFirst(2))")
        }
        text.append(byte)
        index += 1
    }
}

extension String {
    /// `'x'` → `x`, for quoting a character differently in a message.
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
