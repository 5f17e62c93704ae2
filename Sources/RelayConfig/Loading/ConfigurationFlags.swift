/// Values given on the command line, which override the file. An agent passes each of its
/// flags as an optional: `nil` when the flag was not given, so the file's value stands.
///
/// ```swift
/// var flags = ConfigurationFlags()
/// flags.set(PhoneConfiguration.Keys.controlSocket, options.controlSocket)   // String?
/// flags.set(LinkSettings.Keys.heartbeatSeconds, options.heartbeatSeconds)   // Int?
/// ```
public struct ConfigurationFlags: Sendable {
    struct Entry: Sendable {
        var key: AnyConfigKey
        var value: TOMLValue
    }

    private(set) var values: [Entry] = []

    /// No flags.
    public init() {}

    /// Overrides `key` with `value` when the flag was given; `flag` names it in messages
    /// when it is spelled differently from the key's documented flag.
    public mutating func set<Value>(_ key: ConfigKey<Value>, _ value: Value?, flag: String? = nil) {
        guard let value else { return }
        let erased = key.erased
        let named = AnyConfigKey(
            path: erased.path, rule: erased.rule, defaultValue: erased.defaultValue, summary: erased.summary,
            flag: flag ?? erased.flag)
        values.removeAll { $0.key.path == key.path }
        values.append(Entry(key: named, value: key.encode(value)))
    }

    /// Whether no flag overrides anything.
    public var isEmpty: Bool { values.isEmpty }
}
