/// A rule between keys (a minimum below a maximum), checked after every value is known.
public struct ConfigCheck: Sendable {
    /// The keys the rule involves; the problem is reported at the first one set by a file or flag.
    public let paths: [String]
    /// What the rule requires, for the documentation.
    public let summary: String
    private let test: @Sendable (ConfigValues) -> String?

    /// A rule: `test` returns the message naming the keys and values when they break it.
    public init(paths: [String], summary: String, _ test: @escaping @Sendable (ConfigValues) -> String?) {
        self.paths = paths
        self.summary = summary
        self.test = test
    }

    func problem(in values: ConfigValues) -> ConfigProblem? {
        guard let message = test(values) else { return nil }
        let origin = paths.lazy.map(values.origin(of:)).first { $0 != .defaultValue } ?? .defaultValue
        let key = paths.first { values.origin(of: $0) != .defaultValue } ?? paths.first ?? ""
        return ConfigProblem(origin: origin, key: key, message: message)
    }
}
