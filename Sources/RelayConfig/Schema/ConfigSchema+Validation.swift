/// Files and flags checked against the schema: every problem is collected, each naming
/// the key, the value and what is allowed.
extension ConfigSchema {
    /// Defaults, then the file's values, then the flags', checked; throws every problem found.
    /// Relative paths in the file are taken from its folder, in flags from `currentDirectory`.
    public func values(file: ConfigurationFile?, flags: ConfigurationFlags = ConfigurationFlags(), currentDirectory: String)
        throws(ConfigurationError) -> ConfigValues
    {
        var values = defaults()
        var problems = ProblemList()
        if let file {
            let sections = sectionPaths
            check(file.table, prefix: [], file: file, sections: sections, into: &values, problems: &problems)
        }
        for flag in flags.values {
            let key = flag.key
            if let issue = key.rule.problem(with: flag.value) {
                problems.add(ConfigProblem(
                    origin: .flag(key.flagForMessages), key: key.path,
                    message: Self.message(for: issue, key: key, value: flag.value)))
            } else {
                values.set(
                    key.rule.resolvingRelativePaths(in: flag.value, against: currentDirectory), at: key.path,
                    from: .flag(key.flagForMessages))
            }
        }
        if problems.isEmpty {
            for check in checks { if let problem = check.problem(in: values) { problems.add(problem) } }
        }
        guard problems.isEmpty else { throw .invalid(problems.problems, omitted: problems.omitted) }
        return values
    }

    private func check(
        _ table: TOMLTable, prefix: [String], file: ConfigurationFile, sections: Set<String>,
        into values: inout ConfigValues, problems: inout ProblemList
    ) {
        for (name, value) in table.pairs {
            let parts = prefix + [name]
            // Schema paths are bare keys joined by dots; a quoted key containing a dot must
            // not pass for a section, so the written form is what is compared.
            let path = parts.map(TOMLWriter.key).joined(separator: ".")
            let origin = ConfigOrigin.file(file.path, table.position(of: name))
            if let key = key(path) {
                if let issue = key.rule.problem(with: value) {
                    problems.add(ConfigProblem(origin: origin, key: path, message: Self.message(for: issue, key: key, value: value)))
                } else {
                    values.set(key.rule.resolvingRelativePaths(in: value, against: file.directory), at: path, from: origin)
                }
            } else if sections.contains(path) {
                guard case .table(let inner) = value else {
                    problems.add(ConfigProblem(
                        origin: origin, key: path,
                        message: "'\(path)' is a section and must be a table (a [\(path)] header with its keys below it), not \(value.kindDescription)"))
                    continue
                }
                check(inner, prefix: parts, file: file, sections: sections, into: &values, problems: &problems)
            } else {
                let hint = problems.isFull ? nil : KeySuggestion.closest(to: path, among: keys.map(\.path) + sections.sorted())
                let advice = hint.map { "; did you mean '\($0)'?" } ?? "; \(fileName)'s keys are listed in Docs/CONFIGURATION.md"
                problems.add(ConfigProblem(origin: origin, key: path, message: "unknown key '\(path)' in \(fileName)" + advice))
            }
        }
    }

    /// "link.heartbeat_seconds is 0; allowed: 1 to 60 seconds".
    static func message(for issue: ConfigIssue, key: AnyConfigKey, value: TOMLValue) -> String {
        switch issue {
        case .wrongType:
            return "\(key.path) must be \(article(key.rule.typeName)) (\(key.rule.allowedDescription)), not \(value.kindDescription) (\(shortened(value)))"
        case .notAllowed:
            return "\(key.path) is \(shortened(value)); allowed: \(key.rule.allowedDescription)"
        }
    }

    private static func article(_ typeName: String) -> String {
        (typeName.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + typeName
    }

    /// The value as TOML, cut to a length that fits a message.
    private static func shortened(_ value: TOMLValue) -> String {
        let text = value.description
        return text.count <= 80 ? text : String(text.prefix(77)) + "…"
    }
}

/// Problems up to a limit, so that a huge broken file yields a readable report in bounded time.
struct ProblemList {
    static let limit = 100
    private(set) var problems: [ConfigProblem] = []
    private(set) var omitted = 0

    var isEmpty: Bool { problems.isEmpty }
    var isFull: Bool { problems.count >= Self.limit }

    mutating func add(_ problem: ConfigProblem) {
        if isFull { omitted += 1 } else { problems.append(problem) }
    }
}
