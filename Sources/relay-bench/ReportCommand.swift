import ArgumentParser
import Foundation

/// `relay-bench report`: the figures the benchmarks recorded (`RELAY_BENCH_RECORD`) as one
/// table on standard output, and Docs/BENCHMARKS.md written from its template with them.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the recorded figures as one table and write the benchmarks document from its template.",
        discussion: """
            scripts/bench.sh runs every benchmark with RELAY_BENCH_RECORD set to one file, then this. \
            The template's placeholders: {{run}} (machine, date, commit, load), {{summary}} (every \
            figure held against a budget), {{figures NAME}} (benchmark NAME's figures and the \
            commands that produced them).
            """)

    @Option(help: "The figures, one JSON object per line, as the benchmarks recorded them.")
    var figures: String

    @Option(help: "The document's template (Docs/BENCHMARKS.template.md).")
    var template: String?

    @Option(help: "Where to write the document (Docs/BENCHMARKS.md); without it only the table is printed.")
    var output: String?

    @Option(help: "The commit measured, as git describes it.")
    var commit: String = "unknown"

    @Option(help: "The Swift toolchain, as swift --version names it.")
    var toolchain: String?

    @Option(name: .customLong("run-command"), help: "The command that ran everything (make bench).")
    var runCommand: String = "make bench"

    @Option(help: "A remark on the run for the document's head (a quick subset, a busy machine); may be repeated.")
    var note: [String] = []

    func run() throws {
        let recorded = try FigureLog.read(figures)
        guard !recorded.isEmpty else {
            throw BenchError("no figures in \(figures): every benchmark failed or RELAY_BENCH_RECORD was not passed to them")
        }
        // The run's date is when its last figure was recorded, also when the document is written
        // again later from the same figures (a changed template).
        let recordedAt = (try? FileManager.default.attributesOfItem(atPath: figures))?[.modificationDate] as? Date
        let document = BenchmarksDocument(
            figures: recorded, machine: .current, date: recordedAt ?? Date(), commit: commit, toolchain: toolchain,
            runCommand: runCommand, note: note)
        print(document.summaryTable)
        guard let output else { return }
        guard let template else { throw ValidationError("--output needs --template (Docs/BENCHMARKS.template.md)") }
        guard let text = try? String(contentsOfFile: template, encoding: .utf8) else {
            throw BenchError("cannot read the template \(template); run from the repository's root or pass its path")
        }
        let rendered = try document.render(template: text)
        do {
            // Written beside and renamed, so an interrupted run leaves the old document whole.
            try rendered.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw BenchError("cannot write \(output): \(error.localizedDescription)")
        }
        print("\nwrote \(output)")
    }
}
