/// Where a setting's value came from, for messages and for an agent that logs its settings.
public enum ConfigOrigin: Sendable, Hashable, CustomStringConvertible {
    /// Neither the file nor a flag set it.
    case defaultValue
    /// The configuration file, at a line when known.
    case file(String, TOMLPosition?)
    /// A command-line flag.
    case flag(String)

    /// `default`, `phone.toml:7:1` or `--heartbeat-seconds`.
    public var description: String {
        switch self {
        case .defaultValue: "default"
        case .file(let file, let position?): "\(file):\(position)"
        case .file(let file, nil): file
        case .flag(let flag): flag
        }
    }
}

/// Checked values of every key of a schema: defaults, then the file's, then the flags'.
public struct ConfigValues: Sendable, Equatable {
    private var values: [String: TOMLValue]
    private var origins: [String: ConfigOrigin] = [:]

    /// Every key at its default.
    init(defaultsOf schema: ConfigSchema) {
        values = Dictionary(schema.keys.map { ($0.path, $0.defaultValue) }, uniquingKeysWith: { first, _ in first })
    }

    /// The value of `key`; its default when the value is missing or of another type, which
    /// a schema's checks rule out.
    public subscript<Value>(key: ConfigKey<Value>) -> Value {
        values[key.path].flatMap(key.decode) ?? key.defaultValue
    }

    /// The value at `path` as TOML.
    public func value(at path: String) -> TOMLValue? { values[path] }

    /// Where the value at `path` came from.
    public func origin(of path: String) -> ConfigOrigin { origins[path] ?? .defaultValue }

    mutating func set(_ value: TOMLValue, at path: String, from origin: ConfigOrigin) {
        values[path] = value
        origins[path] = origin
    }

    /// Equal values; origins do not count.
    public static func == (left: ConfigValues, right: ConfigValues) -> Bool {
        left.values == right.values
    }
}
