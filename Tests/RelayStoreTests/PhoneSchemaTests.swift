import Foundation
import GRDB
@testable import RelayStore
import Testing

/// The centre's rows: what a round's deletions remove, whichever way the ids lie.
@Suite struct PhoneSchemaTests {
    @Test func idsGroupIntoRunsOfConsecutiveIds() {
        #expect(PhoneSchema.consecutiveRuns([]) == [])
        #expect(PhoneSchema.consecutiveRuns([7, 5, 6, 6, 9, 10, 3]) == [3...3, 5...7, 9...10])
        #expect(PhoneSchema.consecutiveRuns([.max, .max - 1, 0]) == [0...0, (.max - 1)...(.max)])
    }

    /// Runs few enough for range statements, and ids too scattered for them: either way exactly
    /// the ids asked for go, and the ids between them stay.
    @Test(arguments: [
        [UInt32](11...40),
        [3, 4, 5, 9, 10, 20],
        stride(from: 2, through: 60, by: 2).map { UInt32($0) },
    ])
    func deletingRemovesExactlyTheIdsGiven(_ doomed: [UInt32]) throws {
        let folder = try RelayDatabaseTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try RelayDatabase(path: folder + "/phone.sqlite", migrations: PhoneSchema.migrations)
        let all = [UInt32](1...64)
        try database.write { db in
            try PhoneSchema.save(db, all.map { .init(centreID: $0, key: nil, revision: 1, record: Data([1])) })
            try PhoneSchema.deleteNotifications(db, centreIDs: doomed.shuffled())
        }
        let left = try database.read { db in try PhoneSchema.loadNotifications(db).map(\.centreID) }
        #expect(left == all.filter { !doomed.contains($0) })
    }

    /// A database from before v4 keeps its rows; afterwards any number of rows may have no
    /// key, and an assigned key is still refused a second time.
    @Test func keysStayUniqueWhereAssignedAcrossTheMigration() throws {
        let folder = try RelayDatabaseTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let queue = try DatabaseQueue(path: folder + "/phone.sqlite")
        try PhoneSchema.migrations.migrate(queue, upTo: "v3 signal outbox")
        try queue.write { db in
            try PhoneSchema.save(db, [
                .init(centreID: 1, key: 10, revision: 2, record: Data([1])),
                .init(centreID: 2, key: nil, revision: 0, record: Data([2])),
            ])
        }
        try PhoneSchema.migrations.migrate(queue)
        try queue.write { db in
            let rows = try PhoneSchema.loadNotifications(db)
            #expect(rows.map(\.centreID) == [1, 2])
            #expect(rows.map(\.key) == [10, nil])
            #expect(rows.map(\.revision) == [2, 0])
            try PhoneSchema.save(db, [.init(centreID: 3, key: nil, revision: 0, record: Data([3]))])
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE centre_notification SET key = 10 WHERE centre_id = 3")
            }
        }
    }
}
