/// A group of keys written under one `[section]` header ("" for the keys before any header).
public struct ConfigSection: Sendable {
    /// The header's name, or "" for top-level keys.
    public let name: String
    /// One line on what the section is about.
    public let summary: String
    /// The section's keys, in the order files and documentation list them.
    public let keys: [AnyConfigKey]

    /// Creates a section.
    public init(_ name: String, _ summary: String, keys: [AnyConfigKey]) {
        self.name = name
        self.summary = summary
        self.keys = keys
    }
}

/// Every key of one agent's configuration file, with the rules between keys. Checks files
/// and flags (`values(file:flags:currentDirectory:)`), and renders the documented defaults
/// (`defaultFileText`, `referenceMarkdown`) from the same declarations.
public struct ConfigSchema: Sendable {
    /// The agent's role, which names its file: `phone` → `phone.toml`.
    public let role: String
    /// Who reads the file, for headings: "the phone agent (relay-phone)".
    public let title: String
    /// The sections in order; the top-level one is named "".
    public let sections: [ConfigSection]
    /// Rules between keys.
    public let checks: [ConfigCheck]
    private let keysByPath: [String: AnyConfigKey]

    /// Creates a schema.
    public init(role: String, title: String, sections: [ConfigSection], checks: [ConfigCheck] = []) {
        self.role = role
        self.title = title
        self.sections = sections
        self.checks = checks
        keysByPath = Dictionary(
            sections.flatMap(\.keys).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The file's usual name: `phone.toml`.
    public var fileName: String { role + ".toml" }

    /// Every key in order.
    public var keys: [AnyConfigKey] { sections.flatMap(\.keys) }

    /// The key at a dotted path.
    public func key(_ path: String) -> AnyConfigKey? { keysByPath[path] }

    /// Every key at its default.
    public func defaults() -> ConfigValues { ConfigValues(defaultsOf: self) }

    /// Names of sections, including those that only hold other sections.
    var sectionPaths: Set<String> {
        var paths: Set<String> = []
        for key in keys {
            var section = key.section
            while !section.isEmpty {
                paths.insert(section)
                guard let dot = section.lastIndex(of: ".") else { break }
                section = String(section[..<dot])
            }
        }
        return paths
    }
}
