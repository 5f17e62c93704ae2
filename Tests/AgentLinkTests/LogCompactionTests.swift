import Foundation
import RelayStore
import Testing

/// While the wearable is away, apps that keep posting and closing notifications must not make
/// the phone's log grow without end: past its limit the log gives way to a snapshot.
@Suite("The phone's log while the wearable is away")
struct LogCompactionTests {
    @Test("churn while the wearable is away is replaced by a snapshot, and the wearable ends with what is left")
    func churnGivesWayToASnapshot() async throws {
        let minimum = 40
        try await AgentLinkHarness.with(logCompactionMinimum: minimum) { harness in
            #expect(try await harness.startPaired())
            for id in 1...3 as ClosedRange<UInt32> { try harness.owner.post(id, title: "Kept \(id)") }
            #expect(await harness.screen.wait { ScheduleMirrorTests.shows("Kept 3", $0) })
            #expect(await harness.goOutOfRange())

            // 300 changes, of which three notifications are what is left.
            for round in 1...100 {
                try harness.owner.post(UInt32(100 + round), title: "Gone \(round)")
                try harness.owner.remove(UInt32(100 + round))
                try harness.owner.post(1, title: "Kept 1, version \(round)", replaced: true)
            }
            // The log is counted every `minimum / 4` entries and replaced beyond `minimum`.
            let bound = minimum + minimum / 4
            let unacknowledged = { (try? harness.phone.database.read(LinkLogTables.unacknowledgedCount)) ?? .max }
            #expect(await waitFor { unacknowledged() <= bound }, "\(unacknowledged()) entries wait for the wearable")

            let apart = harness.screen.elements.count
            harness.outage.end()
            #expect(await harness.screen.wait { ScheduleMirrorTests.shows("Kept 1, version 100", Array($0.dropFirst(apart))) })
            #expect(await waitFor { harness.wearable.status.shown == 3 }, "the wearable shows \(harness.wearable.status.shown)")
            // Only those closed after the last replacement still pass through on their way out.
            let gone = harness.screen.elements.dropFirst(apart).filter {
                if case .upsert(let n, _) = $0 { n.content.title.hasPrefix("Gone") } else { false }
            }
            #expect(gone.count <= bound / 2, "\(gone.count) of the 100 closed while the wearable was away reached it")
        }
    }
}
