import ArgumentParser
import Foundation
import RelayTestSupport

/// Catch-up after the link comes back: relay-phone and relay-wearable paired and locked, the
/// link switched off between them (`LinkSwitch`), changes posted on the phone, the link
/// switched on, and the time until the wearable has drawn the last of them.
struct CatchUpBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catch-up",
        abstract: "Time from the link coming back to the wearable's replica holding every change queued while it was down.",
        discussion: """
            relay-phone, relay-wearable and relayctl must be built beside relay-bench. The phone \
            connects to the wearable through a switch relay-bench holds; while it is off the phone \
            takes new notifications, updates in place (replaces_id) and removals (CloseNotification) \
            and queues them for the wearable. The clock starts when the first connection passes the \
            switch after it is on again (relayctl reconnect skips the phone's backoff) and stops at \
            the wearable's present trace line for the last change; then the replica is compared \
            with what the phone holds. Budget: within 1 s (the design's budgets, §9).
            """)

    @Option(help: "Changes queued while the link is down: 2/5 updates, 1/5 removals, the rest new notifications.")
    var changes: Int = 500

    @Option(help: "Times the link goes down and comes back (each with its own changes).")
    var rounds: Int = 3

    @Option(help: "D-Bus connections the notifications come from (apps).")
    var connections: Int = 4

    @Option(help: "Calls in flight while posting.")
    var workers: Int = 8

    @Option(help: "Directory under which the agents' state and sockets go; default: the temporary directory.")
    var directory: String?

    func validate() throws {
        guard changes >= 5 else { throw ValidationError("--changes must be at least 5 (some of each kind)") }
        for (name, value) in [("rounds", rounds), ("connections", connections), ("workers", workers)] where value <= 0 {
            throw ValidationError("--\(name) must be positive")
        }
    }

    func run() async throws {
        try await BenchWorkspace.withFolder("catch-up", under: directory) { work in try await run(in: work) }
    }

    private func run(in work: String) async throws {
        let results = try await withPrivateBus { bus in
            try await LoopbackAgents.runningThroughSwitch(in: work, bus: bus) { agents, trace, linkSwitch in
                let clients = try await agents.pairedAndLocked(connections: connections, on: bus)
                var results: [CatchUpRound.Result] = []
                for round in 1...rounds {
                    results.append(try await CatchUpRound(
                        round: round, changes: changes, workers: workers, clients: clients, agents: agents,
                        linkSwitch: linkSwitch, trace: trace
                    ).run())
                }
                return results
            }
        }
        report(results)
    }

    private func report(_ results: [CatchUpRound.Result]) {
        print("""
            load: \(changes) changes per round queued on relay-phone while the link is off (\(changes * 2 / 5) updates in \
            place, \(changes / 5) removals, \(changes - changes * 2 / 5 - changes / 5) new, the last posted last), over \
            \(connections) D-Bus connections with \(workers) calls in flight; both agents in loopback mode, paired and \
            locked; load average (1, 5, 15 min) at the end: \(EndToEndReport.loadAverage)

            | round | entries queued on the phone | link back → first new one drawn ms | link back → last change drawn ms | CPU meanwhile, phone / wearable ms | replica as the phone's | target |
            | --- | --- | --- | --- | --- | --- | --- |
            """)
        for result in results {
            print(
                "| \(result.round) | \(result.queued) | \(FigureFormat.fixed(result.firstDrawn / 1e6)) | "
                    + "\(FigureFormat.fixed(result.lastDrawn / 1e6)) | \(result.cpuText) | \(result.consistencyText) | "
                    + "≤ 1 s: \(FigureFormat.verdict(result.met)) |")
        }
        let times = results.map(\.lastDrawn).sorted()
        let worst = times.last ?? .nan
        let median = times.isEmpty ? .nan : times[(times.count - 1) / 2]
        let consistent = results.allSatisfy(\.consistent)
        print("link back → replica consistent: median \(FigureFormat.fixed(median / 1e6)) ms, worst \(FigureFormat.fixed(worst / 1e6)) ms of \(results.count) rounds")
        let section = "catch-up"
        FigureLog.record(
            section, "\(changes) changes queued, link back → last change drawn ("
                + (results.count == 1 ? "one round)" : "worst of \(results.count) rounds)"),
            "\(FigureFormat.fixed(worst / 1e6)) ms", target: "≤ 1 s", met: worst <= 1e9 && consistent)
        FigureLog.record(section, "… median of the rounds", "\(FigureFormat.fixed(median / 1e6)) ms")
        FigureLog.record(
            section, "… link back → first new notification drawn (median)",
            "\(FigureFormat.fixed((results.map(\.firstDrawn).sorted().dropFirst((results.count - 1) / 2).first ?? .nan) / 1e6)) ms")
        FigureLog.record(
            section, "CPU from link back to the last change drawn, relay-phone / relay-wearable ms (per round; 10 ms ticks)",
            results.map(\.cpuText).joined(separator: " · "))
        FigureLog.record(
            section, "entries queued on the phone while down (per round)", results.map { String($0.queued) }.joined(separator: " · "))
        FigureLog.record(
            section, "replica afterwards: every change applied, nothing removed shown",
            results.map(\.consistencyText).joined(separator: " · "), target: "all consistent", met: consistent)
    }
}
