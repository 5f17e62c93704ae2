/// Reads TOML documents: the subset a configuration file needs (TOML 1.0 without dates,
/// times and arrays of tables).
public enum TOML {
    /// Parses `text`; `file` names it in errors ("phone.toml:7:12: expected '=' …").
    public static func parse(_ text: String, file: String = "<input>", limits: TOMLLimits = .standard)
        throws(TOMLSyntaxError) -> TOMLTable
    {
        try parse(bytes: Array(text.utf8), file: file, limits: limits)
    }

    /// Parses UTF-8 `bytes`; anything that is not UTF-8 is an error with its position.
    public static func parse(bytes: [UInt8], file: String = "<input>", limits: TOMLLimits = .standard)
        throws(TOMLSyntaxError) -> TOMLTable
    {
        guard bytes.count <= limits.maximumBytes else {
            throw TOMLSyntaxError(
                file: file, position: TOMLPosition(line: 1, column: 1),
                message: "the file has \(bytes.count) bytes; a configuration file may have at most \(limits.maximumBytes)")
        }
        var parser = TOMLParser(bytes: bytes, file: file, limits: limits)
        return try parser.parseDocument()
    }
}
