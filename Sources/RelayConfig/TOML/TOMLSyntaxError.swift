/// A place in a file: line and column, both counted from 1; columns count Unicode scalars.
public struct TOMLPosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in Unicode scalars (a tab counts as one).
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// A file that is not TOML (or not the subset Relay reads), with where and what was expected.
public struct TOMLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name as given to the parser.
    public var file: String
    /// Where the problem is.
    public var position: TOMLPosition
    /// What was expected and what was found instead.
    public var message: String

    /// Creates an error.
    public init(file: String, position: TOMLPosition, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `file:line:column: message`, the form editors and compilers use.
    public var description: String { "\(file):\(position): \(message)" }
}
