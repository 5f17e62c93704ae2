import Foundation

/// One round of `relay-bench catch-up`: notifications to change, the link off, the changes
/// posted, the link on, the time until the wearable drew the last change, and the replica
/// compared with what it should hold.
struct CatchUpRound {
    /// What a round measured.
    struct Result {
        var round: Int
        /// Link back → the first new notification drawn, in nanoseconds.
        var firstDrawn: Double
        /// Link back → the last change drawn: the replica consistent, in nanoseconds.
        var lastDrawn: Double
        /// relay-phone's unacknowledged entries just before the link came back.
        var queued: String
        /// Each agent's CPU time from switching the link on to the last change drawn.
        var phoneCPU: Duration
        var wearableCPU: Duration
        /// Titles that should be on the wearable and are not, and ones that should not and are.
        var missing: Int
        var unexpected: Int

        var consistent: Bool { missing == 0 && unexpected == 0 }
        var met: Bool { consistent && lastDrawn <= 1e9 }
        var cpuText: String { String(format: "%.0f / %.0f", phoneCPU.seconds * 1000, wearableCPU.seconds * 1000) }
        var consistencyText: String { consistent ? "yes" : "**no**: \(missing) missing, \(unexpected) not removed" }
    }

    /// One change posted while the link is off.
    private enum Change {
        case update(base: Int)
        case remove(base: Int)
        case new(Int)
    }

    let round: Int
    let changes: Int
    let workers: Int
    let clients: [NotifyClient]
    let agents: LoopbackAgents
    let linkSwitch: LinkSwitch
    let trace: PresentTraceReader

    func run() async throws -> Result {
        let updates = changes * 2 / 5
        let removals = changes / 5
        let news = changes - updates - removals
        let prefix = "r\(round)"

        // The notifications the round will update and remove, drawn on the wearable first.
        let baseTitles = (0..<(updates + removals)).map { "\(prefix)-base-\($0)" }
        let baseIDs = try await postAndClose(baseTitles.indices.map { index in (index, baseTitles[index], UInt32(0)) }, [])
        try await awaitDrawn(baseTitles, what: "the round's first notifications")
        // Acknowledged too, so that the queue measured below holds only this round's changes.
        try await agents.awaitPhone("unacknowledged", timeout: .seconds(30)) { $0 == "0" }

        linkSwitch.switchOff()
        try await agents.awaitPhone("link") { $0 != "connected" }

        // Interleaved kinds, as an app's traffic would be; the last new notification is posted
        // after everything else, so its presentation means every change before it was applied.
        var plan: [Change] = []
        for index in 0..<max(updates, removals, news - 1) {
            if index < updates { plan.append(.update(base: index)) }
            if index < removals { plan.append(.remove(base: updates + index)) }
            if index < news - 1 { plan.append(.new(index)) }
        }
        var titles: [String] = []
        var newTitles: [String] = []
        var live: [UInt32] = []
        var calls: [(Int, String, UInt32)] = []
        var closes: [(Int, UInt32)] = []
        for change in plan {
            switch change {
            case .update(let base):
                titles.append("\(prefix)-update-\(base)")
                // Updated in place: the phone answers with the same id, collected below.
                calls.append((base, titles[titles.count - 1], baseIDs[base]))
            case .remove(let base):
                closes.append((base, baseIDs[base]))
            case .new(let index):
                titles.append("\(prefix)-new-\(index)")
                newTitles.append(titles[titles.count - 1])
                calls.append((index, titles[titles.count - 1], 0))
            }
        }
        live += try await postAndClose(calls, closes)
        let lastTitle = "\(prefix)-new-\(news - 1)"
        live.append(try await clients[0].notify(title: lastTitle))
        titles.append(lastTitle)
        let queued = try await agents.phoneStatus("unacknowledged") ?? "?"

        let phoneBefore = ProcessCPU.time(of: agents.phone.pid) ?? .zero
        let wearableBefore = ProcessCPU.time(of: agents.wearable.pid) ?? .zero
        linkSwitch.switchOn()
        try await agents.reconnect()
        // The wearable applies the phone's log in order, so once the last change is drawn every
        // change before it is applied. Only new notifications are awaited: the present trace
        // names what a frame changed, and an update to a notification off the screen changes no
        // frame (the replica is checked for those below).
        try await awaitDrawn([lastTitle], what: "the last change queued while the link was off")
        guard let back = linkSwitch.connectedSinceOn, let last = trace.presentation(of: lastTitle) else {
            throw BenchError("the wearable drew the changes but no connection passed the link switch; is relay-phone's --peer the switch?")
        }
        let phoneCPU = (ProcessCPU.time(of: agents.phone.pid) ?? .zero) - phoneBefore
        let wearableCPU = (ProcessCPU.time(of: agents.wearable.pid) ?? .zero) - wearableBefore
        let first = newTitles.compactMap { trace.presentation(of: $0) }.min() ?? last
        guard first >= back else {
            throw BenchError("a change was drawn before the link came back through the switch; the switch did not hold the link down")
        }

        // Every title the round should leave, and none it removed or replaced.
        let expected = Set(titles)
        let shown = Set(try await agents.wearableTitles().filter { $0.hasPrefix(prefix + "-") })
        let result = Result(
            round: round, firstDrawn: Double(first - back), lastDrawn: Double(last - back), queued: queued,
            phoneCPU: phoneCPU, wearableCPU: wearableCPU, missing: expected.subtracting(shown).count, unexpected: shown.subtracting(expected).count)

        // Back to an empty screen for the next round: closed in the phone's order, so the fence's
        // presentation means every removal before it reached the wearable.
        _ = try await postAndClose([], live.enumerated().map { ($0.offset, $0.element) })
        let fence = "\(prefix)-closed"
        let fenceID = try await clients[0].notify(title: fence)
        try await awaitDrawn([fence], what: "the round's last notification")
        try await clients[0].close(fenceID)
        return result
    }

    /// Posts `calls` (`(index, title, replacing)`) and closes `closes` (`(index, id)`), `workers`
    /// calls in flight, each from client `index % clients`, so that an update or a removal comes
    /// from the app that posted the original; returns the ids of the posted ones, in order.
    private func postAndClose(_ calls: [(Int, String, UInt32)], _ closes: [(Int, UInt32)]) async throws -> [UInt32] {
        let clients = self.clients
        let workers = self.workers
        return try await withThrowingTaskGroup(of: [(Int, UInt32)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var ids: [(Int, UInt32)] = []
                    for position in stride(from: worker, to: calls.count, by: workers) {
                        let (index, title, replacing) = calls[position]
                        ids.append((position, try await clients[index % clients.count].notify(title: title, replacing: replacing)))
                    }
                    for position in stride(from: worker, to: closes.count, by: workers) {
                        let (index, id) = closes[position]
                        try await clients[index % clients.count].close(id)
                    }
                    return ids
                }
            }
            var ids = [UInt32](repeating: 0, count: calls.count)
            for try await batch in group { for (position, id) in batch { ids[position] = id } }
            return ids
        }
    }

    private func awaitDrawn(_ titles: [String], what: String) async throws {
        let missing = await trace.waitForPresentations(of: titles, until: .now + .seconds(60))
        guard missing.isEmpty else {
            throw BenchError("the wearable did not draw \(missing.count) of \(what) within 60 s (first: \(missing[0])); relay-bench e2e shows whether mirroring works at all")
        }
    }
}
