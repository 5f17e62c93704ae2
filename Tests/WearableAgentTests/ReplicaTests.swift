import Foundation
import RelayStore
import RelayWire
import Testing

@testable import WearableAgent

@Suite("Replica")
struct ReplicaTests {
    static func upsert(_ key: UInt64, revision: UInt64, title: String = "Hello", mayAlert: Bool = true) -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.upsert.key = key
        change.upsert.revision = revision
        change.upsert.appKey = 1
        change.upsert.content.title = title
        change.upsert.mayAlert = mayAlert
        change.upsert.deliveredAt = 1_700_000_000
        return change
    }

    static func remove(_ key: UInt64, revision: UInt64) -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.remove.key = key
        change.remove.revision = revision
        change.remove.reason = .dismissedOnPhone
        return change
    }

    static func alerts(_ effects: [ReplicaEffect]) -> [Bool] {
        effects.compactMap { if case .stored(_, let alert) = $0 { alert } else { nil } }
    }

    @Test("a new notification alerts once; its update in place is stored without alerting")
    func updateInPlaceDoesNotAlert() {
        var replica = Replica()
        #expect(Self.alerts(replica.apply(Self.upsert(1, revision: 1))) == [true])
        let update = replica.apply(Self.upsert(1, revision: 2, title: "Edited"))
        #expect(Self.alerts(update) == [false])
        #expect(update.contains { if case .report(.alerted(let a)) = $0 { a.reason == "update in place" } else { false } })
        #expect(replica.contents.notifications[1]?.content.title == "Edited")
    }

    @Test("applying the same upsert twice, or an older one, changes nothing")
    func staleUpsertsAreIgnored() {
        var replica = Replica()
        _ = replica.apply(Self.upsert(1, revision: 2, title: "New"))
        #expect(replica.apply(Self.upsert(1, revision: 2, title: "New")).isEmpty)
        #expect(replica.apply(Self.upsert(1, revision: 1, title: "Old")).isEmpty)
        #expect(replica.contents.notifications[1]?.content.title == "New")
    }

    @Test("a removal leaves a tombstone that a late upsert cannot get past")
    func tombstonesHold() {
        var replica = Replica()
        _ = replica.apply(Self.upsert(1, revision: 1))
        #expect(replica.apply(Self.remove(1, revision: 2)) == [.removed(key: 1, revision: 2)])
        #expect(replica.apply(Self.upsert(1, revision: 2)).isEmpty)
        #expect(replica.contents.notifications[1] == nil)
        #expect(replica.apply(Self.remove(1, revision: 2)).isEmpty)
    }

    @Test("silent sync and the passive level store without alerting, and say why")
    func silentAndPassive() {
        var replica = Replica()
        var passive = Self.upsert(1, revision: 1)
        passive.upsert.content.interruptionLevel = .passive
        #expect(Self.alerts(replica.apply(passive)) == [false])
        var settings = Relay_V1_Change()
        settings.settings.silent = true
        _ = replica.apply(settings)
        let effects = replica.apply(Self.upsert(2, revision: 1))
        #expect(Self.alerts(effects) == [false])
        #expect(effects.contains { if case .report(.alerted(let a)) = $0 { a.reason == "do not disturb (the phone's silent sync)" } else { false } })
    }

    @Test("a snapshot replaces the whole state, never alerts, and accepts any revision")
    func snapshotIsTheWholeState() {
        var replica = Replica()
        _ = replica.apply(Self.upsert(1, revision: 5))
        _ = replica.apply(Self.upsert(2, revision: 1))
        _ = replica.apply(Self.remove(3, revision: 9))
        var begin = Relay_V1_Change()
        begin.snapshotBegin.epoch = 7
        _ = replica.apply(begin)
        #expect(Self.alerts(replica.apply(Self.upsert(1, revision: 1, title: "Reset phone"))) == [false])
        #expect(Self.alerts(replica.apply(Self.upsert(3, revision: 1))) == [false])
        var end = Relay_V1_Change()
        end.snapshotEnd.epoch = 7
        let effects = replica.apply(end)
        #expect(effects == [.snapshotEnded, .removed(key: 2, revision: 1)])
        #expect(replica.contents.notifications.keys.sorted() == [1, 3])
        #expect(replica.contents.notifications[1]?.content.title == "Reset phone")
    }
}

@Suite("Replica: the phone's schedule")
struct ReplicaScheduleTests {
    static func schedule(_ key: UInt64, title: String) -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.scheduleUpsert.key = key
        change.scheduleUpsert.revision = 1
        change.scheduleUpsert.content.title = title
        change.scheduleUpsert.trigger.intervalSeconds = 3600
        change.scheduleUpsert.scheduledAt = 1_700_000_000
        change.scheduleUpsert.timeZone = "Europe/Berlin"
        return change
    }

    @Test("scheduled requests are stored, replaced and removed; a snapshot drops those it does not mention")
    func storedReplacedRemoved() {
        var replica = Replica()
        #expect(replica.apply(Self.schedule(1, title: "Stand-up")).count == 1)
        #expect(replica.apply(Self.schedule(1, title: "Stand-up")).isEmpty)
        _ = replica.apply(Self.schedule(1, title: "Stand-up moved"))
        #expect(replica.contents.schedules[1]?.content.title == "Stand-up moved")
        _ = replica.apply(Self.schedule(2, title: "Backup"))
        var remove = Relay_V1_Change()
        remove.scheduleRemove.key = 2
        #expect(replica.apply(remove) == [.scheduleRemoved(key: 2)])
        _ = replica.apply(Self.schedule(3, title: "Gone after the snapshot"))
        var begin = Relay_V1_Change()
        begin.snapshotBegin.epoch = 9
        _ = replica.apply(begin)
        _ = replica.apply(Self.schedule(1, title: "Stand-up moved"))
        var end = Relay_V1_Change()
        end.snapshotEnd.epoch = 9
        #expect(replica.apply(end).contains(.scheduleRemoved(key: 3)))
        #expect(replica.contents.schedules.keys.sorted() == [1])
    }

    static func withImage(_ change: Relay_V1_Change, _ digest: UInt8) -> Relay_V1_Change {
        var change = change
        var reference = Relay_V1_AttachmentRef()
        reference.identifier = "photo"
        reference.sha256 = Data(repeating: digest, count: 32)
        reference.size = 1000
        change.upsert.content.attachments = [reference]
        return change
    }

    @Test("attachments are released only when what referred to them goes or changes to another")
    func attachmentsReleased() {
        var replica = Replica()
        let released = { (effects: [ReplicaEffect]) in effects.contains(.attachmentsReleased) }
        _ = replica.apply(ReplicaTests.upsert(1, revision: 1))
        #expect(!released(replica.apply(ReplicaTests.remove(1, revision: 2))), "no picture, nothing to release")
        #expect(!released(replica.apply(Self.withImage(ReplicaTests.upsert(2, revision: 1), 0xAA))))
        #expect(!released(replica.apply(Self.withImage(ReplicaTests.upsert(2, revision: 2, title: "Same picture"), 0xAA))))
        #expect(released(replica.apply(Self.withImage(ReplicaTests.upsert(2, revision: 3, title: "Another picture"), 0xBB))))
        #expect(released(replica.apply(ReplicaTests.remove(2, revision: 4))))
    }
}
