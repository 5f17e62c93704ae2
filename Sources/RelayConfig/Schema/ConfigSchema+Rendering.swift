/// The documented defaults, rendered from the schema so that the file users start from,
/// Docs/CONFIGURATION.md and the code cannot drift apart.
extension ConfigSchema {
    /// A complete configuration file with every key at its default, commented out, each
    /// below its documentation. Parsing it gives the defaults; so does uncommenting it.
    public var defaultFileText: String {
        var lines = Self.comment(
            "Relay: configuration of \(title), \(fileName). Every key is listed with its default, commented out: "
                + "remove the '#' in front of a key to change it. Flags on the command line override this file; "
                + "Docs/CONFIGURATION.md describes every key.")
        for section in sections {
            if !section.name.isEmpty {
                lines += [""] + Self.comment(section.summary) + ["[\(section.name)]"]
            }
            for key in section.keys {
                lines.append("")
                lines += Self.comment(key.summary)
                lines += Self.comment("Allowed: \(key.rule.allowedDescription)." + (key.flag.map { " Flag: \($0)." } ?? ""))
                lines.append("#\(TOMLWriter.key(key.name)) = \(key.defaultValue)")
            }
        }
        let rules = checks.map(\.summary)
        if !rules.isEmpty {
            lines += [""] + Self.comment("Rules between keys: " + rules.joined(separator: "; ") + ".")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The reference for Docs/CONFIGURATION.md: a table of every key, the rules between
    /// keys, and the default file.
    public var referenceMarkdown: String {
        var lines = [
            "### `\(fileName)`: \(title)",
            "",
            "| key | type | default | allowed | flag | meaning |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for key in keys {
            let cells = [
                "`\(key.path)`", key.rule.typeName, "`\(key.defaultValue)`", key.rule.allowedDescription,
                key.flag.map { "`\($0)`" } ?? "", key.summary,
            ]
            lines.append("| " + cells.map { $0.replacingPipes }.joined(separator: " | ") + " |")
        }
        if !checks.isEmpty {
            lines += ["", "Rules between keys:", ""] + checks.map { "- \($0.summary)." }
        }
        lines += [
            "", "<details><summary>The default <code>\(fileName)</code></summary>", "", "```toml",
            defaultFileText.hasSuffix("\n") ? String(defaultFileText.dropLast()) : defaultFileText,
            "```", "", "</details>",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as `# ` comment lines of at most 92 characters, broken between words.
    static func comment(_ text: String, width: Int = 92) -> [String] {
        var lines: [String] = []
        var line = "#"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width, line != "#" {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        if line != "#" { lines.append(line) }
        return lines
    }
}

extension String {
    /// The text with `|` escaped, for a Markdown table cell.
    fileprivate var replacingPipes: String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
