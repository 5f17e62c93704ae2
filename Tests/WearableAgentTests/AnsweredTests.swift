import RelayStore
import RelayWire
import Testing
import WearableUI

@testable import WearableAgent

/// What the user answered on the wearable stays off its screen until the phone removes or
/// updates it, also across a restart.
@Suite("Replica: answered notifications")
struct AnsweredTests {
    static func shown(_ replica: Replica) -> [String] {
        ReplicaPresentation.everything(replica.contents).compactMap {
            if case .upsert(let notification, _) = $0 { notification.request.content.title } else { nil }
        }
    }

    @Test("an answered notification is not shown after a restart, nor by a snapshot resending it; its next revision is")
    func answeredStaysOffTheScreen() throws {
        let stored = try StoredReplica()
        try stored.apply(ReplicaTests.upsert(1, revision: 1, title: "Answered"))
        try stored.apply(ReplicaTests.upsert(2, revision: 1, title: "Waiting"))
        let answer = stored.replica.answer(1)
        #expect(answer == [.answered(key: 1)])
        try stored.database.write { db in try ReplicaPersistence.persist(answer, in: db) }
        #expect(stored.replica.answer(1).isEmpty, "answering twice changes nothing")

        try stored.restart()
        #expect(Self.shown(stored.replica) == ["Waiting"])
        #expect(stored.replica.contents.notifications[1] != nil, "held for the phone's removal")

        // A snapshot sent before the phone heard of the answer resends the same revision.
        var begin = Relay_V1_Change()
        begin.snapshotBegin.epoch = 2
        try stored.apply(begin)
        let resent = try stored.apply(ReplicaTests.upsert(1, revision: 1, title: "Answered"))
        #expect(ReplicaPresentation.events(for: resent, in: stored.replica.contents).isEmpty)
        try stored.apply(ReplicaTests.upsert(2, revision: 1, title: "Waiting"))
        var end = Relay_V1_Change()
        end.snapshotEnd.epoch = 2
        try stored.apply(end)
        try stored.restart()
        #expect(Self.shown(stored.replica) == ["Waiting"])

        // A phone whose database was reset hands the key out again, for something else.
        var begin2 = Relay_V1_Change()
        begin2.snapshotBegin.epoch = 3
        try stored.apply(begin2)
        let reused = try stored.apply(ReplicaTests.upsert(1, revision: 1, title: "Someone else"))
        #expect(ReplicaPresentation.events(for: reused, in: stored.replica.contents).count == 1)
        #expect(stored.replica.contents.notifications[1]?.answered == false)
        _ = stored.replica.answer(1)
        try stored.database.write { db in try ReplicaPersistence.persist([.answered(key: 1)], in: db) }
        try stored.apply(ReplicaTests.upsert(2, revision: 1, title: "Waiting"))
        var end2 = Relay_V1_Change()
        end2.snapshotEnd.epoch = 3
        try stored.apply(end2)

        // The app changed it after the answer: shown again.
        let updated = try stored.apply(ReplicaTests.upsert(1, revision: 2, title: "Updated"))
        #expect(ReplicaPresentation.events(for: updated, in: stored.replica.contents).count == 1)
        try stored.restart()
        #expect(Set(Self.shown(stored.replica)) == ["Updated", "Waiting"])
    }
}
