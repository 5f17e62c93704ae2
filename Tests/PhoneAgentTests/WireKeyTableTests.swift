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

    /// After a power cut the counters move far past every key handed out, kept once stored, so
    /// a key the wearable may hold from a lost commit never names something else.
    @Test func skippingAheadLeavesEveryKeyEverHandedOutBehind() {
        var table = WireKeyTable()
        var assigned: [WireKeyTable.Assignment] = []
        let notifications = (1...3).map { _ in table.nextNotificationKey(assigned: &assigned) }
        let schedules = ["app\u{1F}one", "app\u{1F}two"].map { table.key(.schedule, $0, assigned: &assigned) }
        // What a lost commit may have handed out on top: the rest of the reserved range, and
        // the next schedule key.
        let mayBeHeld = (notifications.max() ?? 0)...64
        let lostSchedule = (schedules.max() ?? 0) + 1

        var skipped: [WireKeyTable.Assignment] = []
        table.skipAhead(assigned: &skipped)
        assigned += skipped
        var stored: [String: [String: UInt64]] = [:]
        for assignment in assigned { stored[assignment.kind.rawValue, default: [:]][assignment.name] = assignment.key }

        for var candidate in [table, WireKeyTable(stored: stored)] {
            var more: [WireKeyTable.Assignment] = []
            let next = candidate.nextNotificationKey(assigned: &more)
            #expect(!mayBeHeld.contains(next) && next > 64)
            let schedule = candidate.key(.schedule, "app\u{1F}three", assigned: &more)
            #expect(schedule > lostSchedule)
            // Known names keep their keys, and the counter's name is nobody's.
            #expect(candidate.key(.schedule, "app\u{1F}one", assigned: &more) == schedules[0])
            #expect(candidate.name(of: schedule, .schedule) == "app\u{1F}three")
        }
    }
}
