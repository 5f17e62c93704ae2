import PhoneAgent
import Testing

/// Notification keys: consecutive while the agent runs, the counter stored once per reserved
/// range, and never a key handed out twice across a restart.
@Suite struct WireKeyTableTests {
    @Test func notificationKeysAreConsecutiveAndTheCounterIsStoredOncePerRange() {
        var table = WireKeyTable()
        var assigned: [WireKeyTable.Assignment] = []
        let keys = (1...130).map { _ in table.nextNotificationKey(assigned: &assigned) }
        #expect(keys == Array(1...130))
        // Stored at the first key of each range of 64: before 1, 65 and 129.
        #expect(assigned.map(\.key) == [64, 128, 192])
        #expect(assigned.allSatisfy { $0.kind == .notification && $0.name == "counter" })
    }

    @Test func aRestoredTableNeverHandsOutAKeyAgain() {
        var table = WireKeyTable()
        var assigned: [WireKeyTable.Assignment] = []
        let before = (1...10).map { _ in table.nextNotificationKey(assigned: &assigned) }
        // What a crash leaves: the last counter stored.
        let stored = ["notification": ["counter": assigned.last?.key ?? 0]]
        var restored = WireKeyTable(stored: stored)
        var again: [WireKeyTable.Assignment] = []
        let after = (1...10).map { _ in restored.nextNotificationKey(assigned: &again) }
        #expect(Set(before).isDisjoint(with: after))
        #expect(after.first.map { $0 > before.max() ?? 0 } == true)
        #expect(again.count == 1)
    }
}
