import ArgumentParser
import Foundation
import RelayTestSupport

/// `Notify` → pixels: relay-phone and relay-wearable in loopback mode, paired and locked as in
/// scripts/demo.sh, with notifications posted over D-Bus and the wearable's present trace
/// (`RELAY_PRESENT_TRACE`) telling when each frame reached the framebuffer.
struct EndToEndBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "e2e",
        abstract: "Notify → pixels on the wearable: latency at a steady rate and in a burst, memory, idle CPU.",
        discussion: """
            relay-phone, relay-wearable and relayctl must be built beside relay-bench \
            (swift build -c release --product NAME for each). Runs on a private dbus-daemon and \
            a state directory of its own, removed afterwards. Takes about two minutes plus \
            --idle-seconds and the open stream.
            """)

    @Option(help: "Notifications per second in the steady part.")
    var rate: Int = 50

    @Option(help: "Seconds of the steady part (after one second of warm-up, not counted).")
    var seconds: Int = 20

    @Option(help: "Notifications posted at once in the burst.")
    var burst: Int = 1_000

    @Option(help: "Notifications in the stream that closes old ones (memory after 1,000 … this many).")
    var stream: Int = 10_000

    @Option(name: .customLong("keep-open"), help: "At most this many notifications live during that stream.")
    var keepOpen: Int = 50

    @Option(help: "Notifications in the last stream, which leaves every one open (0 skips it).")
    var open: Int = 10_000

    @Option(name: .customLong("open-limit"), help: "Seconds after which the open stream stops posting.")
    var openLimit: Int = 300

    @Option(name: .customLong("idle-seconds"), help: "Seconds of idling over which CPU time is measured.")
    var idleSeconds: Int = 60

    @Option(help: "D-Bus connections the notifications come from (apps).")
    var connections: Int = 10

    @Option(help: "Calls in flight in the streams and when closing.")
    var workers: Int = 8

    @Option(help: "Directory under which the agents' state and sockets go; default: the temporary directory.")
    var directory: String?

    func validate() throws {
        for (name, value) in [("rate", rate), ("seconds", seconds), ("burst", burst), ("stream", stream),
            ("keep-open", keepOpen), ("idle-seconds", idleSeconds), ("connections", connections), ("workers", workers)]
        where value <= 0 {
            throw ValidationError("--\(name) must be positive")
        }
        guard open >= 0, openLimit > 0 else { throw ValidationError("--open must be 0 or more and --open-limit positive") }
        guard keepOpen >= workers else { throw ValidationError("--keep-open must be at least --workers (each worker keeps its share)") }
    }

    func run() async throws {
        try await BenchWorkspace.withFolder("e2e", under: directory) { work in try await run(in: work) }
    }

    private func run(in work: String) async throws {
        let fsync = try FsyncProbe.measure(in: work)
        let results = try await withPrivateBus { bus in
            try await LoopbackAgents.running(in: work, bus: bus) { agents, trace in
                try await EndToEndRun(benchmark: self, agents: agents, bus: bus, trace: trace).run()
            }
        }
        EndToEndReport(benchmark: self, results: results, fsync: fsync).print()
    }
}
