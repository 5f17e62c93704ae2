/// One value of a TOML document.
///
/// Dates and times are not part of Relay's subset: no setting needs them, and a parser that
/// refuses them says so instead of misreading them.
public enum TOMLValue: Sendable, CustomStringConvertible {
    /// A string (basic, literal or multi-line; escapes already resolved).
    case string(String)
    /// A 64-bit integer (decimal, hexadecimal, octal or binary in the file).
    case integer(Int64)
    /// A 64-bit floating-point number, including `inf` and `nan`.
    case float(Double)
    /// `true` or `false`.
    case boolean(Bool)
    /// An array; TOML allows its elements to differ in type.
    case array([TOMLValue])
    /// A table: a `[header]` section, dotted keys or an inline table.
    case table(TOMLTable)

    /// The kind of value with its article, for messages: "an integer", "a string".
    public var kindDescription: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .array: "an array"
        case .table: "a table"
        }
    }

    /// The value written as TOML, on one line: `"text"`, `5`, `[1, 2]`, `{ a = 1 }`.
    public var description: String { TOMLWriter.inline(self) }
}

extension TOMLValue: Equatable {
    /// Structural equality in which `nan` equals `nan`, so that a document always equals its
    /// own round trip through the writer.
    public static func == (left: TOMLValue, right: TOMLValue) -> Bool {
        switch (left, right) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.float(let a), .float(let b)): a == b || (a.isNaN && b.isNaN)
        case (.boolean(let a), .boolean(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.table(let a), .table(let b)): a == b
        default: false
        }
    }
}
