import ArgumentParser
import Foundation
import WearableUI

/// The wearable's rendering into an RGB565 file framebuffer.
struct RenderBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Time to render and write frames into a 240×240 RGB565 file framebuffer.")

    @Option(help: "Frames per case.")
    var iterations: Int = 500

    func run() throws {
        let report = try RenderBenchmark.run(iterations: iterations)
        print(report)
        print("target: ≤ 5 ms per full 240×240 frame (release)")
        record(report)
    }

    /// Records each case of WearableUI's report (`  NAME: mean M, p50 P, p99 Q, max X`, in ms):
    /// the report is text, and a line that does not read so is said, not guessed at.
    private func record(_ report: String) {
        for line in report.split(separator: "\n").dropFirst() {
            guard let colon = line.lastIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            var values: [String: Double] = [:]
            for part in line[line.index(after: colon)...].split(separator: ",") {
                let words = part.split(separator: " ")
                if words.count == 2, let value = Double(words[1]) { values[String(words[0])] = value }
            }
            guard let mean = values["mean"], let p50 = values["p50"], let p99 = values["p99"], let max = values["max"] else {
                FileHandle.standardError.write(Data("relay-bench render: could not read '\(line)'; it is not recorded\n".utf8))
                continue
            }
            let value = [mean, p50, p99, max].map { FigureFormat.fixed($0) }.joined(separator: " / ")
            // The budget is for a full frame; the first frame (cold caches) is one sample.
            let full = name.hasPrefix("full frame")
            FigureLog.record(
                "render", "\(name): mean / p50 / p99 / max ms", value, target: full ? "p99 ≤ 5 ms" : nil,
                met: full ? p99 <= 5 : nil)
        }
    }
}
