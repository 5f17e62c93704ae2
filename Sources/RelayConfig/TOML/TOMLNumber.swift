/// TOML's integers and floats: `+1_000`, `0xDEAD_BEEF`, `0o755`, `0b1010`, `6.626e-34`, `inf`, `nan`.
enum TOMLNumber {
    /// Why a token is not a number.
    struct Problem: Error {
        var reason: String
    }

    /// The characters a number (or a date, which is refused) may be made of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        TOMLSyntax.isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":")
    }

    /// `1979-05-27…` or `07:32…`: a TOML date or time.
    static func looksLikeDateOrTime(_ token: [UInt8]) -> Bool {
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= token.count && token[range].allSatisfy { digitValue($0, radix: 10) != nil }
        }
        return (digits(0..<4) && token.count > 4 && token[4] == UInt8(ascii: "-"))
            || (digits(0..<2) && token.count > 2 && token[2] == UInt8(ascii: ":"))
    }

    static func digitValue(_ byte: UInt8, radix: Int) -> Int? {
        let value: Int
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        return value < radix ? value : nil
    }

    static func parse(_ token: [UInt8]) -> Result<TOMLValue, Problem> {
        var body = token[...]
        var sign = ""
        if let first = body.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? "-" : ""
            body = body.dropFirst()
        }
        let text = String(decoding: body, as: UTF8.self)
        if text == "inf" { return .success(.float(sign == "-" ? -.infinity : .infinity)) }
        if text == "nan" { return .success(.float(.nan)) }
        let prefixes: [(String, Int, String)] = [("0x", 16, "hexadecimal"), ("0o", 8, "octal"), ("0b", 2, "binary")]
        for (prefix, radix, name) in prefixes where text.hasPrefix(prefix) {
            guard token.count == body.count else {
                return .failure(Problem(reason: "a \(name) integer cannot have a sign"))
            }
            return integer(Array(body.dropFirst(2)), radix: radix, sign: "", name: name)
        }
        return decimal(Array(body), sign: sign)
    }

    /// Digits with single underscores between them; returns them without the underscores.
    private static func digits(_ part: [UInt8], radix: Int, name: String, missing: String) -> Result<String, Problem> {
        guard !part.isEmpty else { return .failure(Problem(reason: missing)) }
        var clean = ""
        var previousWasDigit = false
        for byte in part {
            if byte == UInt8(ascii: "_") {
                guard previousWasDigit else { return .failure(Problem(reason: "an underscore must stand between two digits")) }
                previousWasDigit = false
            } else if digitValue(byte, radix: radix) != nil {
                clean.unicodeScalars.append(Unicode.Scalar(byte))
                previousWasDigit = true
            } else {
                return .failure(Problem(reason: "'\(Character(Unicode.Scalar(byte)))' is not a \(name) digit"))
            }
        }
        guard previousWasDigit else { return .failure(Problem(reason: "an underscore must stand between two digits")) }
        return .success(clean)
    }

    private static func integer(_ part: [UInt8], radix: Int, sign: String, name: String) -> Result<TOMLValue, Problem> {
        digits(part, radix: radix, name: name, missing: "\(name) digits are missing").flatMap { clean in
            guard let value = Int64(sign + clean, radix: radix) else {
                return .failure(Problem(reason: "it does not fit in a 64-bit integer"))
            }
            return .success(.integer(value))
        }
    }

    /// `int`, `int.frac`, `int e exp` or `int.frac e exp`.
    private static func decimal(_ body: [UInt8], sign: String) -> Result<TOMLValue, Problem> {
        let exponentAt = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = Array(body[..<(exponentAt ?? body.count)])
        let dot = mantissa.firstIndex(of: UInt8(ascii: "."))
        let whole = Array(mantissa[..<(dot ?? mantissa.count)])
        if whole.count > 1, whole.first == UInt8(ascii: "0") {
            return .failure(Problem(reason: "leading zeros are not allowed"))
        }
        let wholeDigits: String
        switch digits(whole, radix: 10, name: "decimal", missing: "digits are missing") {
        case .success(let value): wholeDigits = value
        case .failure(let problem): return .failure(problem)
        }
        guard dot != nil || exponentAt != nil else {
            return integer(whole, radix: 10, sign: sign, name: "decimal")
        }
        var text = sign + wholeDigits
        if let dot {
            switch digits(Array(mantissa[(dot + 1)...]), radix: 10, name: "decimal", missing: "digits are missing after '.'") {
            case .success(let fraction): text += "." + fraction
            case .failure(let problem): return .failure(problem)
            }
        }
        if let exponentAt {
            var exponent = body[(exponentAt + 1)...]
            var exponentSign = ""
            if let first = exponent.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                exponentSign = first == UInt8(ascii: "-") ? "-" : "+"
                exponent = exponent.dropFirst()
            }
            switch digits(Array(exponent), radix: 10, name: "decimal", missing: "the exponent has no digits") {
            case .success(let value): text += "e" + exponentSign + value
            case .failure(let problem): return .failure(problem)
            }
        }
        guard let value = Double(text) else { return .failure(Problem(reason: "it is not a floating-point number")) }
        return .success(.float(value))
    }
}
