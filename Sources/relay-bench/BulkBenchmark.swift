import ArgumentParser
import Foundation
import RelayTestSupport
import RelayTransport

/// `Notify` → pixels over the link simulator at RFCOMM-like bandwidth, with the link idle and
/// then with an image attachment always in flight on its bulk channel (issue #9): alerts must
/// not wait behind more bulk data than the wearable asks for ahead (Docs/PROTOCOL.md §8.8).
struct BulkBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bulk",
        abstract: "Notify → pixels over the simulated RFCOMM link, idle and with an image attachment always in flight.",
        discussion: """
            relay-phone, relay-wearable and relayctl must be built beside relay-bench. relay-phone \
            connects to the wearable through the link simulator running inside relay-bench (by \
            default 80,000 bytes/s each way, 15 ms, MTU 1013: a Raspberry Pi's UART Bluetooth). \
            Text notifications are posted at --rate for --seconds with the link otherwise idle, \
            then again while images of noise (PNG, --image-side pixels square, about 300 KB at \
            320) are posted one after the other, each as soon as the wearable has stored the \
            previous one. Takes about twice --seconds plus the pairing and the last image.
            """)

    @Option(help: "Text notifications per second in each phase.")
    var rate: Int = 5

    @Option(help: "Seconds of each phase (after one second of warm-up, not counted).")
    var seconds: Int = 10

    @Option(name: .customLong("image-side"), help: "Width and height of the images in pixels (at most 320: the phone shrinks larger ones).")
    var imageSide: Int = 320

    @Option(name: .customLong("bytes-per-second"), help: "The simulated link's throughput in each direction.")
    var bytesPerSecond: Int = LinkConditions().bytesPerSecond

    @Option(name: .customLong("latency-ms"), help: "The simulated link's one-way latency in milliseconds.")
    var latencyMilliseconds: Int = 15

    @Option(help: "The largest segment the simulated link delivers at once, in bytes.")
    var mtu: Int = LinkConditions().mtu

    @Option(help: "D-Bus connections the text notifications come from (the images have one of their own).")
    var connections: Int = 2

    @Option(name: .customLong("image-timeout"), help: "Seconds one image may take to reach the wearable before the run fails.")
    var imageTimeoutSeconds: Int = 120

    @Option(help: "Directory under which the agents' state and sockets go; default: the temporary directory.")
    var directory: String?

    /// Text notifications per phase.
    var count: Int { rate * seconds }

    /// How long one image may take.
    var imageTimeout: Duration { .seconds(imageTimeoutSeconds) }

    /// The simulated link.
    var conditions: LinkConditions {
        LinkConditions(latency: .milliseconds(latencyMilliseconds), bytesPerSecond: bytesPerSecond, mtu: mtu)
    }

    func validate() throws {
        for (name, value) in [("rate", rate), ("seconds", seconds), ("bytes-per-second", bytesPerSecond), ("mtu", mtu),
            ("connections", connections), ("image-timeout", imageTimeoutSeconds)]
        where value <= 0 {
            throw ValidationError("--\(name) must be positive")
        }
        guard latencyMilliseconds >= 0 else { throw ValidationError("--latency-ms must be 0 or more") }
        guard (1...320).contains(imageSide) else {
            throw ValidationError("--image-side must be 1–320: the phone reduces larger images to 320 pixels")
        }
    }

    func run() async throws {
        try await BenchWorkspace.withFolder("bulk", under: directory) { work in try await run(in: work) }
    }

    private func run(in work: String) async throws {
        let conditions = conditions
        let results = try await withPrivateBus { bus in
            var link: SimulatedLink?
            do {
                let results = try await LoopbackAgents.running(in: work, bus: bus) { wearableLink in
                    let started = try await SimulatedLink.start(
                        path: work + "/simulated-link.sock", upstream: wearableLink, conditions: conditions)
                    link = started
                    return started.path
                } _: { agents, trace in
                    try await BulkRun(benchmark: self, agents: agents, bus: bus, trace: trace, imageDirectory: work + "/images").run()
                }
                await link?.stop()
                return results
            } catch {
                await link?.stop()
                throw error
            }
        }
        BulkReport(benchmark: self, results: results).print()
    }
}
