/// Writes values and documents as TOML that `TOML.parse` reads back to the same table.
public enum TOMLWriter {
    /// A value on one line: strings quoted and escaped, tables as inline tables.
    public static func inline(_ value: TOMLValue) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .integer(let number): return String(number)
        case .float(let number): return float(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .array(let elements): return "[" + elements.map(inline).joined(separator: ", ") + "]"
        case .table(let table):
            guard !table.isEmpty else { return "{}" }
            return "{ " + table.pairs.map { key($0.key) + " = " + inline($0.value) }.joined(separator: ", ") + " }"
        }
    }

    /// A whole document, one top-level key per line (nested tables written inline).
    public static func document(_ table: TOMLTable) -> String {
        table.pairs.map { key($0.key) + " = " + inline($0.value) + "\n" }.joined()
    }

    /// A key: bare when it may be, otherwise a quoted string.
    public static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.utf8.allSatisfy(TOMLSyntax.isBareKeyByte)
        return bare ? name : quoted(name)
    }

    /// A basic string with every character TOML requires escaped.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    private static func float(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        let text = String(number)
        // Swift writes whole numbers as "5.0" and large ones as "1e+16", both valid TOML;
        // the check keeps a float from ever being written as an integer.
        return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
    }
}
