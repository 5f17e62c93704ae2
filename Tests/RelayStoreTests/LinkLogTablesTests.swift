import Foundation
import GRDB
import RelayStore
import RelayWire
import Testing

@Suite struct LinkLogTablesTests {
    static func body(_ text: String) -> Relay_V1_Envelope.OneOf_Body {
        var event = Relay_V1_WearableEvent()
        event.response.action = text
        return .event(event)
    }

    @Test("a new epoch that keeps the unacknowledged entries numbers them from 1, in order, and appends after them")
    func newEpochKeepsUnacknowledged() throws {
        let folder = try RelayDatabaseTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try RelayDatabase(path: folder + "/log.sqlite", migrations: WearableSchema.migrations)
        let (before, epoch, after, next) = try database.write { db in
            for text in ["a", "b", "c", "d", "e"] { _ = try LinkLogTables.append(db, Self.body(text)) }
            try LinkLogTables.acknowledge(db, through: 2)
            let before = try LinkLogTables.state(db).ownEpoch
            let epoch = try LinkLogTables.startNewEpochKeepingUnacknowledged(db)
            let after = try LinkLogTables.load(db)
            let next = try LinkLogTables.append(db, Self.body("f"))
            return (before, epoch, after, next)
        }
        #expect(epoch != before)
        #expect(after.ownEpoch == epoch)
        #expect(after.outbound.acknowledgedThrough == 0)
        let pending = after.outbound.pending.map { ($0.seq, $0.body) }
        #expect(pending.map(\.0) == [1, 2, 3])
        #expect(pending.map(\.1) == ["c", "d", "e"].map(Self.body))
        #expect(next == 4)
    }
}
