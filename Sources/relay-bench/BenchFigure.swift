import Foundation
import Glibc

/// One figure a benchmark measured, as the summary table and Docs/BENCHMARKS.md show it.
struct BenchFigure: Codable, Sendable {
    /// The benchmark it belongs to (`e2e`, `catch-up`, …): the section of the document.
    var section: String
    /// What was measured, with its unit.
    var name: String
    /// The figure, formatted.
    var value: String
    /// The budget it is held against (the design's §9, the issues' targets), if it has one.
    var target: String?
    /// Whether the budget was met; `nil` for a figure without one.
    var met: Bool?
    /// Whether the figure goes into the summary table as well as its section's.
    var summary: Bool
    /// The command line that produced it (`relay-bench e2e --seconds 20`).
    var command: String
    /// The 1-minute load average when it was recorded: the figures of a busy machine are noisy.
    var loadAverage: Double?
}

/// Where benchmarks put their figures for `relay-bench report`: the JSON-lines file named by
/// `RELAY_BENCH_RECORD` (scripts/bench.sh sets it), one figure per line. Without the variable
/// nothing is recorded; the benchmarks print their figures either way.
enum FigureLog {
    /// The command line this process was started with, as a user would type it.
    static var command: String {
        (["relay-bench"] + CommandLine.arguments.dropFirst().map(quoted)).joined(separator: " ")
    }

    /// Records a figure of `section`. With a target, the figure is in the summary too.
    static func record(
        _ section: String, _ name: String, _ value: String, target: String? = nil, met: Bool? = nil, summary: Bool? = nil
    ) {
        let figure = BenchFigure(
            section: section, name: name, value: value, target: target, met: met, summary: summary ?? (target != nil),
            command: command, loadAverage: oneMinuteLoad())
        append(figure)
    }

    /// Appends `figure` to the record file, if there is one. A figure that cannot be written is
    /// said on standard error and the benchmark goes on: its printed output still has it.
    static func append(_ figure: BenchFigure) {
        guard let path = ProcessInfo.processInfo.environment["RELAY_BENCH_RECORD"], !path.isEmpty else { return }
        do {
            var line = try JSONEncoder().encode(figure)
            line.append(UInt8(ascii: "\n"))
            // O_APPEND: each figure is one write at the end, whichever benchmark wrote before.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw BenchError(String(cString: strerror(errno))) }
            defer { close(descriptor) }
            let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == line.count else { throw BenchError(String(cString: strerror(errno))) }
        } catch {
            FileHandle.standardError.write(Data(
                "relay-bench: could not record '\(figure.name)' in \(path) (\(error)); it is only in the output above\n".utf8))
        }
    }

    /// Reads every figure recorded in `path`, in order.
    static func read(_ path: String) throws -> [BenchFigure] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read the figures at \(path); run the benchmarks with RELAY_BENCH_RECORD=\(path) first")
        }
        let decoder = JSONDecoder()
        var figures: [BenchFigure] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            do {
                figures.append(try decoder.decode(BenchFigure.self, from: Data(line)))
            } catch {
                throw BenchError("line \(index + 1) of \(path) is not a recorded figure (\(error)); remove it or record again")
            }
        }
        return figures
    }

    /// `/proc/loadavg`'s first field.
    static func oneMinuteLoad() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// An argument as a shell would need it: quoted when it holds anything but plain characters.
    private static func quoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=,:".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Verdicts and numbers as the tables write them.
enum FigureFormat {
    /// "met" or "**missed**".
    static func verdict(_ met: Bool) -> String { met ? "met" : "**missed**" }

    /// An integer with thousands separators: 45191 → "45,191".
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// A number with `decimals` places.
    static func fixed(_ value: Double, _ decimals: Int = 2) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
