import Foundation
public import RelaySystem

/// The phone's filter rules file (`filters.toml` beside phone.toml; Docs/POLICY.md, "Filter
/// rules"): one table per rule, `[rule.NAME]`, tried in the order written; the first whose
/// every given condition holds decides.
///
/// ```toml
/// [rule.offers]
/// app = "Shop"
/// title = "offer|sale"
/// ignore_case = true
/// action = "silent"
/// ```
///
/// Everything wrong is reported at once, each at its file:line:column with what to write
/// instead; a file with any problem is refused whole (the agent keeps the rules it had).
public struct FilterRuleFile: Sendable {
    /// One rule as written: the conditions it gives, and what it does.
    public struct Rule: Sendable {
        /// Its name (the table's), which decisions quote.
        public var name: String
        /// The app's name, exactly.
        public var app: String?
        /// The freedesktop `category` hint: exactly, or its class (`email` for `email.arrived`).
        public var category: String?
        /// The interruption level: `passive`, `active`, `time-sensitive` or `critical`.
        public var level: String?
        /// A pattern the title must contain a match of.
        public var title: POSIXRegex?
        /// A pattern the body must contain a match of.
        public var body: POSIXRegex?
        /// `drop`, `silent` or `always-alert`.
        public var action: String
    }

    /// The rules, in the order written.
    public let rules: [Rule]
    /// The file's path.
    public let path: String

    /// The keys a rule takes.
    public static let keys = ["app", "category", "level", "title", "body", "ignore_case", "action"]
    /// The actions.
    public static let actions = ["drop", "silent", "always-alert"]
    /// The levels.
    public static let levels = ["passive", "active", "time-sensitive", "critical"]
    /// The most rules a file holds.
    public static let maximumRules = 256

    /// Reads `path`; a missing file is no rules.
    public static func load(path: String) throws(ConfigurationError) -> FilterRuleFile {
        guard FileManager.default.fileExists(atPath: path) else { return FilterRuleFile(rules: [], path: path) }
        return try FilterRuleFile(file: ConfigurationFile.load(path: path))
    }

    /// The rules of text already read (tests); `path` names it in messages.
    public init(text: String, path: String) throws(ConfigurationError) {
        try self.init(file: ConfigurationFile(text: text, path: path))
    }

    private init(rules: [Rule], path: String) {
        self.rules = rules
        self.path = path
    }

    private init(file: ConfigurationFile) throws(ConfigurationError) {
        var problems: [ConfigProblem] = []
        func problem(_ key: String, _ position: TOMLPosition?, _ message: String) {
            problems.append(ConfigProblem(origin: .file(file.path, position), key: key, message: message))
        }
        for key in file.table.keys where key != "rule" {
            let suggestion = key.lowercased().hasPrefix("rule") ? "; each rule is a table [rule.NAME]" : "; the file holds only rules, each a table [rule.NAME]"
            problem(key, file.table.position(of: key), "unknown key '\(key)'\(suggestion)")
        }
        var rules: [Rule] = []
        if let value = file.table["rule"] {
            guard case .table(let table) = value else {
                problem("rule", file.table.position(of: "rule"), "'rule' must hold tables, one per rule: [rule.NAME]")
                throw .invalid(problems, omitted: 0)
            }
            if table.count > Self.maximumRules {
                problem("rule", file.table.position(of: "rule"), "\(table.count) rules, more than \(Self.maximumRules)")
            }
            for (name, value) in table.pairs.prefix(Self.maximumRules) {
                let at = table.position(of: name)
                guard case .table(let fields) = value else {
                    problem("rule.\(name)", at, "rule.\(name) must be a table of conditions and an action: [rule.\(name)]")
                    continue
                }
                if let rule = Self.rule(name, fields, at: at, problem: problem) { rules.append(rule) }
            }
        }
        guard problems.isEmpty else { throw .invalid(Array(problems.prefix(200)), omitted: max(0, problems.count - 200)) }
        self.init(rules: rules, path: file.path)
    }

    private static func rule(
        _ name: String, _ fields: TOMLTable, at: TOMLPosition?, problem: (String, TOMLPosition?, String) -> Void
    ) -> Rule? {
        var valid = true
        func fail(_ key: String, _ message: String) {
            valid = false
            problem("rule.\(name).\(key)", fields.position(of: key) ?? at, message)
        }
        for key in fields.keys where !keys.contains(key) {
            // The rule's keys are few and short: two edits (a swapped pair of letters) is still a typo.
            let nearest = keys.map { ($0, KeySuggestion.editDistance(Array(key.lowercased()), Array($0))) }.min { $0.1 < $1.1 }
            let hint = nearest.flatMap { $0.1 <= 2 ? "; did you mean '\($0.0)'?" : nil } ?? "; a rule takes \(keys.joined(separator: ", "))"
            fail(key, "unknown key '\(key)' in rule \(name)\(hint)")
        }
        func text(_ key: String) -> String? {
            guard let value = fields[key] else { return nil }
            guard case .string(let text) = value, !text.isEmpty else {
                fail(key, "rule.\(name).\(key) must be a non-empty string, not \(value.kindDescription)")
                return nil
            }
            return text
        }
        func choice(_ key: String, among choices: [String]) -> String? {
            guard let value = text(key) else { return nil }
            guard choices.contains(value) else {
                fail(key, "rule.\(name).\(key) is \"\(value)\"; it must be one of \(choices.joined(separator: ", "))")
                return nil
            }
            return value
        }
        var ignoreCase = false
        if let value = fields["ignore_case"] {
            if case .boolean(let flag) = value { ignoreCase = flag } else { fail("ignore_case", "rule.\(name).ignore_case must be true or false") }
        }
        func pattern(_ key: String) -> POSIXRegex? {
            guard let source = text(key) else { return nil }
            do {
                return try POSIXRegex(source, ignoringCase: ignoreCase)
            } catch {
                fail(key, "rule.\(name).\(key) is not a pattern Relay takes (POSIX extended regular expression): \(error)")
                return nil
            }
        }
        let action = choice("action", among: actions)
        if fields["action"] == nil { fail("action", "rule \(name) has no action; give action = \"drop\", \"silent\" or \"always-alert\"") }
        let rule = Rule(
            name: name, app: text("app"), category: text("category"), level: choice("level", among: levels), title: pattern("title"),
            body: pattern("body"), action: action ?? "")
        if valid, rule.app == nil, rule.category == nil, rule.level == nil, rule.title == nil, rule.body == nil {
            fail("action", "rule \(name) has no condition and would match every notification; give app, category, level, title or body")
        }
        return valid ? rule : nil
    }
}
