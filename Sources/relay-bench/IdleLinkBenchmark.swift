import ArgumentParser
import Foundation
import RelayTestSupport

/// Frames on an idle, healthy link, per hour each way: relay-phone and relay-wearable paired
/// and locked in loopback mode, the link passing through relay-bench's switch, which counts
/// its frames.
struct IdleLinkBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle-link",
        abstract: "Frames per idle hour each way on the link between the agents over a Unix socket.",
        discussion: """
            relay-phone, relay-wearable and relayctl must be built beside relay-bench. After the \
            pairing and --settle seconds, the frames the switch passes each way in --seconds are \
            counted and scaled to an hour. A Unix socket (like TCP) reports no lost link, so the \
            agents keep the fast heartbeat here (a ping after 5 s of quiet); the budget of 60 \
            frames an hour each way is RFCOMM's, where the baseband supervises the link, and the \
            Bluetooth rig measures it there (RELAY_BT_IDLE_SECONDS, Docs/BLUETOOTH.md). Over the \
            same window, each agent's wake-ups (context switches of all its threads, by thread \
            name) and CPU time are counted and scaled to a minute.
            """)

    @Option(help: "Seconds of idle link counted (scaled to an hour).")
    var seconds: Int = 120

    @Option(help: "Seconds to wait after pairing before counting, for the catch-up and its acknowledgements.")
    var settle: Int = 10

    @Option(help: "Directory under which the agents' state and sockets go; default: the temporary directory.")
    var directory: String?

    func validate() throws {
        guard seconds > 0, settle >= 0 else { throw ValidationError("--seconds must be positive and --settle not negative") }
    }

    func run() async throws {
        try await BenchWorkspace.withFolder("idle-link", under: directory) { work in try await run(in: work) }
    }

    private func run(in work: String) async throws {
        let (sent, stayed, idle) = try await withPrivateBus { bus in
            try await LoopbackAgents.runningThroughSwitch(in: work, bus: bus) { agents, _, linkSwitch in
                _ = try await agents.pairedAndLocked(connections: 0, on: bus)
                try await Task.sleep(for: .seconds(settle))
                let (before, connections) = (linkSwitch.frames, linkSwitch.forwarded)
                let agentsBefore = try AgentIdleness(phone: agents.phone.pid, wearable: agents.wearable.pid)
                // This wait is the measurement: the agents are left alone for this long.
                try await Task.sleep(for: .seconds(seconds))
                let idle = try agentsBefore.since(phone: agents.phone.pid, wearable: agents.wearable.pid)
                let after = linkSwitch.frames
                let link = try await agents.phoneStatus("link")
                let stayed = linkSwitch.forwarded == connections && link == "connected"
                return ((after.toWearable - before.toWearable, after.toPhone - before.toPhone), stayed, idle)
            }
        }
        guard stayed else {
            throw BenchError("the link did not stay up through the idle window: the figures would count a reconnection")
        }
        let perHour = (phone: sent.0 * 3600 / seconds, wearable: sent.1 * 3600 / seconds)
        print("""
            idle link over a Unix socket, both agents in loopback mode, paired and locked, nothing posted: \
            \(sent.0) frames phone → wearable and \(sent.1) wearable → phone in \(seconds) s
            per hour (scaled from the \(seconds) s window): phone → wearable \(perHour.phone), wearable → phone \(perHour.wearable)
            """)
        FigureLog.record(
            "idle-link", "frames in an idle hour over a Unix socket, phone → wearable / wearable → phone (\(seconds) s scaled up)",
            "\(perHour.phone) / \(perHour.wearable)", target: "none here (fast heartbeat; RFCOMM: ≤ 60 each way, in the rig)")
        idle.report(seconds: seconds)
    }
}
