/// One thing wrong with a setting, naming where it was written and the key.
public struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where: `phone.toml:7:1`, `--heartbeat-seconds`.
    public var origin: ConfigOrigin
    /// The key's dotted path as written.
    public var key: String
    /// What is wrong and what is allowed, naming the key.
    public var message: String

    /// Creates a problem.
    public init(origin: ConfigOrigin, key: String, message: String) {
        self.origin = origin
        self.key = key
        self.message = message
    }

    /// `phone.toml:7:1: unknown key 'link.heartbeet'; did you mean 'link.heartbeat_seconds'?`
    public var description: String { "\(origin): \(message)" }
}

/// Why an agent's configuration could not be read.
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read (missing, unreadable, a folder, too large).
    case unreadable(path: String, reason: String)
    /// The file is not TOML, or uses what Relay's subset leaves out.
    case syntax(TOMLSyntaxError)
    /// Settings break the schema: every problem found, the first few hundred at most.
    case invalid([ConfigProblem], omitted: Int)

    /// What happened and what to do, one problem per line.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the configuration file \(path): \(reason)"
        case .syntax(let error):
            return error.description
        case .invalid(let problems, let omitted):
            let more = omitted > 0 ? ["… and \(omitted) more problems"] : []
            return (problems.map(\.description) + more).joined(separator: "\n")
        }
    }
}
