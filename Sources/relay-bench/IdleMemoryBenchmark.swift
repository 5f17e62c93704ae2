import ArgumentParser
import Foundation
import RelayTestSupport

/// The idle wearable agent's resident memory: relay-wearable in loopback mode on a 240×240
/// RGB565 file framebuffer, measured after it has sat idle for a while.
struct IdleMemoryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle-rss",
        abstract: "Resident memory (VmRSS) of relay-wearable idling in loopback mode.",
        discussion: "relay-wearable must be built beside relay-bench (swift build -c release --product relay-wearable).")

    @Option(help: "Seconds to let the agent idle before measuring.")
    var seconds: Int = 3

    func run() async throws {
        let directory = "/tmp/relay-bench-rss-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("relay-wearable").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ValidationError("no relay-wearable at \(executable); build it: swift build -c release --product relay-wearable")
        }
        let agent = try ChildProcess(executable, [
            "--transport", "loopback", "--control-socket", directory + "/wearable.sock", "--framebuffer", directory + "/wearable.fb",
            "--state-directory", directory + "/state",
        ])
        var lines = agent.lines.makeAsyncIterator()
        guard let ready = await lines.next(), ready.hasPrefix("ready:") else {
            await agent.stop()
            throw ValidationError("relay-wearable stopped before it was ready")
        }
        // Idle means the first frame is drawn and the clock ticks; this wait is the measurement.
        try await Task.sleep(for: .seconds(seconds))
        let rss = Self.residentKilobytes(of: agent.pid)
        await agent.stop(SIGTERM)
        guard let rss else { throw ValidationError("cannot read VmRSS from /proc/\(agent.pid)/status") }
        print("relay-wearable idle RSS after \(seconds) s (loopback, 240×240 rgb565): \(String(format: "%.1f", Double(rss) / 1024)) MiB")
        print("target: ≤ 24 MB")
        let megabytes = Double(rss) * 1024 / 1e6
        FigureLog.record(
            "idle-rss", "relay-wearable alone, unpaired, idle face after \(seconds) s: VmRSS MB", FigureFormat.fixed(megabytes, 1),
            target: "≤ 24 MB", met: megabytes <= 24)
    }

    /// `VmRSS:   12345 kB` from `/proc/PID/status`.
    private static func residentKilobytes(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
