import ArgumentParser
import Foundation
import RelayDBus
import RelayTestSupport
import Synchronization

/// `Notify` → pixels, one notification at a time, over whatever link the agents use: a running
/// pair's (the Bluetooth rig's, over RFCOMM) or a loopback pair's that it starts itself (over a
/// Unix socket). Both are measured the same way, so the two can be compared on one machine
/// (in a VM under TCG only the ratio means something). The pace is slow on purpose: each
/// latency is the path's own, not a queue's.
struct PresentBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "present",
        abstract: "Notify → pixels one at a time, over running agents' link or over a loopback pair's Unix socket.",
        discussion: """
            With --bus and --trace it posts to the relay-phone on that session bus and reads the \
            present trace of the relay-wearable started with RELAY_PRESENT_TRACE=FILE (a regular \
            file). Without them it starts relay-phone and relay-wearable in loopback beside \
            relay-bench, pairs and locks them, and measures the same way.
            """)

    @Option(help: "The D-Bus address of the session bus a running relay-phone serves; without it a loopback pair is started.")
    var bus: String?

    @Option(help: "The running relay-wearable's present trace (the file its RELAY_PRESENT_TRACE names); goes with --bus.")
    var trace: String?

    @Option(help: "Notifications to post.")
    var count: Int = 40

    @Option(name: .customLong("interval-ms"), help: "Milliseconds between two notifications.")
    var intervalMilliseconds: Int = 250

    @Option(help: "The link's name in the output (rfcomm, unix).")
    var label: String = "link"

    @Option(help: "Directory under which a loopback pair's state goes; default: the temporary directory.")
    var directory: String?

    func validate() throws {
        guard (bus == nil) == (trace == nil) else { throw ValidationError("--bus and --trace go together") }
        guard count > 0, intervalMilliseconds > 0 else { throw ValidationError("--count and --interval-ms must be positive") }
    }

    func run() async throws {
        let (latencies, missing): (LatencyHistogram, Int)
        if let bus, let trace {
            let client = NotifyClient(connection: try await DBusConnection.connect(to: .address(bus)))
            (latencies, missing) = try await measure(client, trace: trace)
        } else {
            (latencies, missing) = try await withPrivateBus { bus in
                try await BenchWorkspace.withFolder("present", under: directory) { work in
                    let trace = work + "/present.trace"
                    guard FileManager.default.createFile(atPath: trace, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                        throw BenchError("cannot create the present trace \(trace)")
                    }
                    let agents = try await LoopbackAgents.start(
                        binDirectory: BenchWorkspace.binaryDirectory, bus: bus.address, directory: work, trace: trace)
                    do {
                        let clients = try await agents.pairedAndLocked(connections: 1, on: bus)
                        let result = try await measure(clients[0], trace: trace)
                        await agents.stop()
                        return result
                    } catch {
                        await agents.stop()
                        throw error
                    }
                }
            }
        }
        print(String(
            format: "present %@: %d notifications, one every %d ms: Notify → pixels p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d not presented",
            label, count, intervalMilliseconds, latencies.percentile(0.5), latencies.percentile(0.99), latencies.maximum, missing))
    }

    /// Posts the notifications from `client`, each timed as its call is written to the bus, and
    /// waits (up to a minute after the last) for the wearable to present them.
    private func measure(_ client: NotifyClient, trace: String) async throws -> (LatencyHistogram, Int) {
        let run = "\(label)-\(getpid())"
        var sent: [String: Int64] = [:]
        for index in 1...count {
            let title = "present \(run) \(index)"
            let time = Atomic<Int64>(0)
            _ = try await client.notify(title: title) { time.store(MonotonicClock.nanoseconds(), ordering: .relaxed) }
            sent[title] = time.load(ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(intervalMilliseconds))
        }
        let deadline = ContinuousClock.now + .seconds(60)
        var presented = Self.presentations(in: trace)
        while sent.keys.contains(where: { presented[$0] == nil }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            presented = Self.presentations(in: trace)
        }
        let latencies = LatencyHistogram(sent.compactMap { title, time in presented[title].map { $0 - time } })
        return (latencies, sent.keys.filter { presented[$0] == nil }.count)
    }

    /// Each title's first presentation in the trace file (`MONOTONIC_NANOSECONDS<TAB>TITLE` lines).
    static func presentations(in path: String) -> [String: Int64] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var first: [String: Int64] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2, let time = Int64(fields[0]) else { continue }
            let title = String(fields[1])
            if first[title] == nil { first[title] = time }
        }
        return first
    }
}
