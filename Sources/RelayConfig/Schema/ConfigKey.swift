import RelaySystem

/// One key of a configuration: its dotted path, rule, default, one line of documentation
/// and the command-line flag that overrides it. `Value` is the Swift type settings read.
public struct ConfigKey<Value: Sendable>: Sendable {
    /// The dotted path in the file: `transport`, `link.heartbeat_seconds`.
    public let path: String
    /// What the key accepts.
    public let rule: ConfigRule
    /// The value when neither the file nor a flag sets one.
    public let defaultValue: Value
    /// One line for people: what the key does and what its default means.
    public let summary: String
    /// The agent's flag for the key (`--control-socket`), when it has one.
    public let flag: String?
    private let encodeValue: @Sendable (Value) -> TOMLValue
    private let decodeValue: @Sendable (TOMLValue) -> Value?

    init(
        path: String, rule: ConfigRule, defaultValue: Value, summary: String, flag: String?,
        encode: @escaping @Sendable (Value) -> TOMLValue, decode: @escaping @Sendable (TOMLValue) -> Value?
    ) {
        self.path = path
        self.rule = rule
        self.defaultValue = defaultValue
        self.summary = summary
        self.flag = flag
        encodeValue = encode
        decodeValue = decode
    }

    /// The value as TOML.
    public func encode(_ value: Value) -> TOMLValue { encodeValue(value) }

    /// The TOML value as `Value`, or `nil` when it is of another type.
    public func decode(_ value: TOMLValue) -> Value? { decodeValue(value) }

    /// The key without its Swift type, as schemas list it.
    public var erased: AnyConfigKey {
        AnyConfigKey(path: path, rule: rule, defaultValue: encode(defaultValue), summary: summary, flag: flag)
    }
}

/// A key of any type, as a schema holds it: everything but the Swift type.
public struct AnyConfigKey: Sendable, Equatable {
    /// The dotted path in the file.
    public let path: String
    /// What the key accepts.
    public let rule: ConfigRule
    /// The default as TOML.
    public let defaultValue: TOMLValue
    /// One line of documentation.
    public let summary: String
    /// The flag that overrides the key, when there is one.
    public let flag: String?

    /// The last part of the path: the name written under the key's `[section]`.
    public var name: String { path.split(separator: ".").last.map(String.init) ?? path }

    /// The section (`link` for `link.heartbeat_seconds`), or "" for top-level keys.
    public var section: String {
        guard let dot = path.lastIndex(of: ".") else { return "" }
        return String(path[..<dot])
    }

    /// The same key with other documentation, for an agent that treats it differently.
    func documented(as summary: String) -> AnyConfigKey {
        AnyConfigKey(path: path, rule: rule, defaultValue: defaultValue, summary: summary, flag: flag)
    }

    /// How messages name a value given on the command line: the flag, or the key.
    var flagForMessages: String { flag ?? "the setting '\(path)'" }
}

extension ConfigKey where Value == Int {
    /// A whole number in `range`; `unit` is named in the documentation.
    public static func integer(
        _ path: String, default value: Int, range: ClosedRange<Int>, unit: String? = nil, flag: String? = nil,
        _ summary: String
    ) -> ConfigKey<Int> {
        ConfigKey(
            path: path, rule: .integer(range, unit: unit), defaultValue: value, summary: summary, flag: flag,
            encode: { .integer(Int64($0)) },
            decode: { if case .integer(let number) = $0 { Int(exactly: number) } else { nil } })
    }
}

extension ConfigKey where Value == Bool {
    /// `true` or `false`.
    public static func boolean(_ path: String, default value: Bool, flag: String? = nil, _ summary: String) -> ConfigKey<Bool> {
        ConfigKey(
            path: path, rule: .boolean, defaultValue: value, summary: summary, flag: flag,
            encode: { .boolean($0) },
            decode: { if case .boolean(let flag) = $0 { flag } else { nil } })
    }
}

extension ConfigKey where Value == String {
    /// A string checked by `rule` (text, a path, an endpoint, a bus, a zone or a language).
    public static func string(
        _ path: String, _ rule: ConfigRule, default value: String = "", flag: String? = nil, _ summary: String
    ) -> ConfigKey<String> {
        ConfigKey(
            path: path, rule: rule, defaultValue: value, summary: summary, flag: flag,
            encode: { .string($0) },
            decode: { if case .string(let text) = $0 { text } else { nil } })
    }
}

extension ConfigKey where Value == [String] {
    /// An array of paths.
    public static func paths(_ path: String, default value: [String] = [], flag: String? = nil, _ summary: String)
        -> ConfigKey<[String]>
    {
        strings(path, rule: .paths, default: value, flag: flag, summary)
    }

    /// An array of names (``ConfigRule/names``).
    public static func names(_ path: String, default value: [String] = [], _ summary: String) -> ConfigKey<[String]> {
        strings(path, rule: .names, default: value, flag: nil, summary)
    }

    /// An array of weekdays (``ConfigRule/weekdays``).
    public static func weekdays(_ path: String, default value: [String], _ summary: String) -> ConfigKey<[String]> {
        strings(path, rule: .weekdays, default: value, flag: nil, summary)
    }

    private static func strings(_ path: String, rule: ConfigRule, default value: [String], flag: String?, _ summary: String)
        -> ConfigKey<[String]>
    {
        ConfigKey(
            path: path, rule: rule, defaultValue: value, summary: summary, flag: flag,
            encode: { .array($0.map { .string($0) }) },
            decode: { value in
                guard case .array(let elements) = value else { return nil }
                return elements.compactMap { if case .string(let text) = $0 { text } else { nil } }
            })
    }
}

extension ConfigKey where Value == [UInt16] {
    /// An array of Linux key codes, written as their names (`KEY_UP`) or numbers.
    public static func keyCodes(_ path: String, default value: [UInt16], _ summary: String) -> ConfigKey<[UInt16]> {
        ConfigKey(
            path: path, rule: .keyCodes, defaultValue: value, summary: summary, flag: nil,
            encode: { .array($0.map { .string(LinuxKeyCodes.name(of: $0)) }) },
            decode: { value in
                guard case .array(let elements) = value else { return nil }
                return elements.compactMap { element in
                    switch element {
                    case .string(let word): LinuxKeyCodes.code(word)
                    case .integer(let number): LinuxKeyCodes.code(String(number))
                    default: nil
                    }
                }
            })
    }
}

extension ConfigKey where Value: RawRepresentable<String> & CaseIterable {
    /// One of the enumeration's raw values.
    public static func choice(_ path: String, default value: Value, flag: String? = nil, _ summary: String) -> ConfigKey<Value> {
        ConfigKey(
            path: path, rule: .choice(Value.allCases.map(\.rawValue)), defaultValue: value, summary: summary, flag: flag,
            encode: { .string($0.rawValue) },
            decode: { if case .string(let text) = $0 { Value(rawValue: text) } else { nil } })
    }
}
