import Foundation

/// Docs/BENCHMARKS.md from its template and the figures of one run: the prose (what each
/// benchmark does, what its numbers mean) is the template's, every number is the run's.
struct BenchmarksDocument {
    let figures: [BenchFigure]
    let machine: MachineDescription
    let date: Date
    let commit: String
    let toolchain: String?
    let runCommand: String
    /// Remarks on the run (a quick subset, benchmarks that failed).
    let note: [String]

    /// Every figure held against a budget (and the few marked for it), one row each.
    var summaryTable: String {
        var lines = ["| benchmark | figure | value | target | verdict |", "| --- | --- | --- | --- | --- |"]
        for figure in figures where figure.summary {
            lines.append(row([
                figure.section, figure.name, figure.value, figure.target ?? "—",
                figure.met.map(FigureFormat.verdict) ?? "—",
            ]))
        }
        return lines.joined(separator: "\n")
    }

    /// The template with `{{run}}`, `{{summary}}` and each `{{figures NAME}}` replaced. Figures
    /// of a benchmark the template does not name are added at the end, so none is lost.
    func render(template: String) throws -> String {
        var text = template.replacingOccurrences(of: "{{run}}", with: runDescription)
            .replacingOccurrences(of: "{{summary}}", with: summaryTable)
        var named: Set<String> = []
        while let start = text.range(of: "{{figures "), let end = text.range(of: "}}", range: start.upperBound..<text.endIndex) {
            let name = text[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespaces)
            named.insert(name)
            text.replaceSubrange(start.lowerBound..<end.upperBound, with: section(name))
        }
        if let unknown = text.range(of: "{{") {
            let placeholder = text[unknown.lowerBound...].prefix(40)
            throw BenchError("the template has a placeholder relay-bench report does not know: \(placeholder)…; use {{run}}, {{summary}} or {{figures NAME}}")
        }
        let others = figures.map(\.section).reduce(into: [String]()) { if !$0.contains($1), !named.contains($1) { $0.append($1) } }
        for name in others {
            text += "\n## Other figures: `\(name)`\n\n" + section(name) + "\n"
        }
        return text
    }

    /// One benchmark's figures as a table, then the commands that produced them.
    private func section(_ name: String) -> String {
        let own = figures.filter { $0.section == name }
        guard !own.isEmpty else {
            return "_Not measured in this run_ (`relay-bench \(name)` was not run, or failed: see the run's output)."
        }
        var lines = ["| figure | value | target |", "| --- | --- | --- |"]
        for figure in own {
            let target = figure.target.map { target in figure.met.map { "\(target): \(FigureFormat.verdict($0))" } ?? target } ?? "—"
            lines.append(row([figure.name, figure.value, target]))
        }
        let commands = own.map(\.command).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        lines.append("")
        lines.append((commands.count == 1 ? "Command: " : "Commands: ") + commands.map { "`\($0)`" }.joined(separator: ", ")
            + (loadRange(own).map { "; load average (1 min) while recorded: \($0)" } ?? "") + ".")
        return lines.joined(separator: "\n")
    }

    /// Machine, date, commit, toolchain, the command, the load: what the figures depend on.
    private var runDescription: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        var lines = [
            "- machine: \(machine.description)",
            "- date: \(formatter.string(from: date))",
            "- commit: \(commit)",
        ]
        if let toolchain { lines.append("- toolchain: \(toolchain), release build") }
        lines.append("- command: `\(runCommand)`, which ran every command named below and wrote this file")
        if let range = loadRange(figures) { lines.append("- load average (1 min) while the figures were recorded: \(range)") }
        for remark in note { lines.append("- \(remark)") }
        return lines.joined(separator: "\n")
    }

    private func loadRange(_ figures: [BenchFigure]) -> String? {
        let loads = figures.compactMap(\.loadAverage)
        guard let low = loads.min(), let high = loads.max() else { return nil }
        return low == high ? FigureFormat.fixed(low) : "\(FigureFormat.fixed(low))–\(FigureFormat.fixed(high))"
    }

    /// A table row; a `|` inside a cell would end it, so it is escaped.
    private func row(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }
}
