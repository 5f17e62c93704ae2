import Foundation
import RelayStore
import RelayWire
import Testing

@testable import WearableAgent

/// A snapshot spans many commits; the wearable may stop in the middle of one.
@Suite("Replica: a snapshot interrupted by a restart")
struct SnapshotProgressTests {
    static func snapshotBegin(_ epoch: UInt64) -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.snapshotBegin.epoch = epoch
        return change
    }

    static func snapshotEnd(_ epoch: UInt64) -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.snapshotEnd.epoch = epoch
        return change
    }

    static func app(_ key: UInt32, _ name: String) -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.appInfo.key = key
        change.appInfo.name = name
        return change
    }

    @Test("after a restart in the middle, the snapshot still alerts for nothing, takes any revision and drops what it did not mention")
    func restartInTheMiddle() throws {
        let stored = try StoredReplica()
        try stored.apply(Self.app(1, "Mail"))
        try stored.apply(Self.app(2, "Chat"))
        try stored.apply(ReplicaTests.upsert(1, revision: 5))
        try stored.apply(ReplicaTests.upsert(2, revision: 3))
        try stored.apply(ReplicaTests.upsert(3, revision: 1))

        try stored.apply(Self.snapshotBegin(4))
        try stored.apply(Self.app(1, "Mail"))
        try stored.apply(ReplicaTests.upsert(1, revision: 1, title: "Kept"))
        try stored.restart()
        #expect(stored.replica.inSnapshot)

        // The phone's state was reset: revision 1 of key 2 is newer than the 3 held.
        let resumed = try stored.apply(ReplicaTests.upsert(2, revision: 1, title: "Also kept"))
        #expect(ReplicaTests.alerts(resumed) == [false])
        let end = try stored.apply(Self.snapshotEnd(4))
        #expect(end.contains(.removed(key: 3, revision: 1)))
        #expect(end.contains(.appRemoved(key: 2)))
        #expect(!end.contains { if case .removed(let key, _) = $0 { key != 3 } else { false } })

        #expect(stored.replica.contents.notifications.keys.sorted() == [1, 2])
        #expect(stored.replica.contents.notifications[2]?.content.title == "Also kept")
        #expect(stored.replica.contents.apps == [1: "Mail"])
        try stored.restart()
        #expect(!stored.replica.inSnapshot)
        #expect(stored.replica.contents.notifications.keys.sorted() == [1, 2])
    }

    @Test("a new snapshot forgets what an unfinished one mentioned, also across a restart")
    func newSnapshotStartsAfresh() throws {
        let stored = try StoredReplica()
        try stored.apply(ReplicaTests.upsert(1, revision: 1))
        try stored.apply(ReplicaTests.upsert(2, revision: 1))
        try stored.apply(Self.snapshotBegin(5))
        try stored.apply(ReplicaTests.upsert(1, revision: 1))
        try stored.apply(ReplicaTests.upsert(2, revision: 1))
        try stored.restart()
        try stored.apply(Self.snapshotBegin(6))
        try stored.apply(ReplicaTests.upsert(2, revision: 1))
        try stored.restart()
        #expect(try stored.apply(Self.snapshotEnd(5)).isEmpty, "the end of the abandoned snapshot ends nothing")
        let end = try stored.apply(Self.snapshotEnd(6))
        #expect(end == [.snapshotEnded, .removed(key: 1, revision: 1)])
        #expect(stored.replica.contents.notifications.keys.sorted() == [2])
    }
}
