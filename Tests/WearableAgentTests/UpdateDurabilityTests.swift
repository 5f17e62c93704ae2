import RelayWire
import Testing

@testable import WearableAgent

@Suite("Which updates are durable, and when their reports may leave")
struct UpdateDurabilityTests {
    private func entry(_ seq: UInt64) -> (seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) {
        (seq, .event(Relay_V1_WearableEvent()))
    }

    @Test func reportsLeaveOnlyOnceASyncCoveredTheirUpdateAndInOrder() {
        var durability = UpdateDurability()
        durability.commit(appending: [entry(1), entry(2)])
        let firstSyncTarget = durability.committed
        durability.commit(appending: [entry(3)])
        #expect(!durability.isSynced)
        // The sync that started before the second commit covers the first update only.
        #expect(durability.didSync(through: firstSyncTarget).map(\.seq) == [1, 2])
        #expect(!durability.isSynced)
        #expect(durability.didSync(through: durability.committed).map(\.seq) == [3])
        #expect(durability.isSynced)
    }

    @Test func twoThreadsSyncingTheSameUpdatesHandEachReportOutOnce() {
        var durability = UpdateDurability()
        durability.commit(appending: [entry(1)])
        let target = durability.committed
        durability.commit(appending: [entry(2)])
        let later = durability.committed
        // The later sync finishes first; the earlier one, finishing after, has nothing left.
        #expect(durability.didSync(through: later).map(\.seq) == [1, 2])
        #expect(durability.didSync(through: target).isEmpty)
        #expect(durability.isSynced)
    }

    @Test func aRewrittenLogDropsTheWaitingReports() {
        var durability = UpdateDurability()
        durability.commit(appending: [entry(4)])
        let target = durability.committed
        durability.logRewritten()
        #expect(durability.isSynced)
        #expect(durability.didSync(through: target).isEmpty)
    }
}
