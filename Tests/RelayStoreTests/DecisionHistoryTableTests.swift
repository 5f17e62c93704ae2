import Foundation
import GRDB
import RelayStore
import Testing

/// The decision history keeps a week and at most `limit` rows, and answers by notification and by app.
@Suite struct DecisionHistoryTableTests {
    @Test func itKeepsAtMostTheLimitAndAWeekAndAnswersByNotificationAndApp() throws {
        let folder = try RelayDatabaseTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try RelayDatabase(path: folder + "/wearable.sqlite", migrations: WearableSchema.migrations)
        let start: Int64 = 1_795_732_200
        let limit = DecisionHistoryTable.limit
        try database.write { db in
            for index in 0..<(limit + 300) {
                try DecisionHistoryTable.record(
                    db,
                    DecisionHistoryTable.Entry(
                        at: start + Int64(index), notification: String(index % 500), revision: 1, app: index % 2 == 0 ? "Mail" : "Chat",
                        alerted: index % 3 == 0, reason: "reason \(index)"))
            }
        }
        let (count, oldest) = try database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM decision_history") ?? 0,
             try String.fetchOne(db, sql: "SELECT reason FROM decision_history ORDER BY id LIMIT 1"))
        }
        #expect(count == limit)
        #expect(oldest == "reason 300")
        let now = start + Int64(limit + 300)
        let about = try database.read { db in try DecisionHistoryTable.entries(db, notification: "42", now: now) }
        #expect(about.map(\.reason).first == "reason 542" && about.allSatisfy { $0.notification == "42" })
        let chat = try database.read { db in try DecisionHistoryTable.recent(db, app: "Chat", count: 3, now: now) }
        // Read a week after the newest: nothing is that recent, whatever is still stored.
        let weekLater = try database.read { db in try DecisionHistoryTable.recent(db, count: 3, now: now + 7 * 86_400 + 1) }
        #expect(weekLater.isEmpty)
        #expect(chat.map(\.reason) == ["reason \(limit + 299)", "reason \(limit + 297)", "reason \(limit + 295)"])

        // Exactly a week after the newest: it stays, everything older goes.
        try database.write { db in
            try DecisionHistoryTable.record(
                db, DecisionHistoryTable.Entry(at: now - 1 + 7 * 86_400, notification: "late", revision: 1, app: "Mail", alerted: false, reason: "late"))
        }
        let kept = try database.read { db in try String.fetchAll(db, sql: "SELECT reason FROM decision_history WHERE reason != 'late'") }
        #expect(kept == ["reason \(limit + 299)"])
        try database.write { db in
            try DecisionHistoryTable.record(
                db, DecisionHistoryTable.Entry(at: now + 7 * 86_400, notification: "later", revision: 1, app: "Mail", alerted: false, reason: "late"))
        }
        let left = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM decision_history WHERE reason != 'late'") ?? -1 }
        #expect(left == 0)
    }
}
