public import GRDB

/// Why each notification was or was not alerted, on the side that decided (Docs/POLICY.md):
/// one row per decision, kept 7 days and at most ``limit`` rows, oldest dropped first. Written
/// in the transaction that applies the decision, so a decision stored is a decision taken.
public enum DecisionHistoryTable {
    /// One decision.
    public struct Entry: Sendable, Hashable {
        /// When, in seconds since 1970.
        public var at: Int64
        /// The notification, as the side names it (the wearable: the phone's key in decimal).
        public var notification: String
        /// Its revision (each update in place is decided again).
        public var revision: UInt64
        /// The posting app's name.
        public var app: String
        /// Whether it alerted.
        public var alerted: Bool
        /// Why, as a person reads it.
        public var reason: String

        /// An entry.
        public init(at: Int64, notification: String, revision: UInt64, app: String, alerted: Bool, reason: String) {
            self.at = at
            self.notification = notification
            self.revision = revision
            self.app = app
            self.alerted = alerted
            self.reason = reason
        }
    }

    /// How long rows are kept: a week, as the occurrences are.
    public static let retentionSeconds: Int64 = 7 * 24 * 3600
    /// The most rows kept: a week of a busy phone, within a few megabytes.
    public static let limit = 20_000

    /// Creates the table (called by a schema's migration).
    public static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE decision_history (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at INTEGER NOT NULL,
                    notification TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    app TEXT NOT NULL,
                    alerted INTEGER NOT NULL,
                    reason TEXT NOT NULL
                );
                CREATE INDEX decision_history_notification ON decision_history (notification);
                """)
    }

    /// Records a decision, and drops what is beyond the limit and, every few hundred rows, what is
    /// older than a week before it. Cheap per row (a snapshot records thousands in one
    /// transaction): the limit goes by the row id, which counts up; the age check scans the table.
    public static func record(_ db: Database, _ entry: Entry) throws {
        try db.execute(
            sql: "INSERT INTO decision_history (at, notification, revision, app, alerted, reason) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [entry.at, entry.notification, Int64(clamping: entry.revision), entry.app, entry.alerted, entry.reason])
        let id = db.lastInsertedRowID
        try db.execute(sql: "DELETE FROM decision_history WHERE id <= ?", arguments: [id - Int64(limit)])
        if id % 256 == 0 {
            try db.execute(sql: "DELETE FROM decision_history WHERE at < ?", arguments: [entry.at - retentionSeconds])
        }
    }

    /// The decisions about `notification`, oldest first.
    public static func entries(_ db: Database, notification: String) throws -> [Entry] {
        try GRDB.Row.fetchAll(db, sql: "SELECT * FROM decision_history WHERE notification = ? ORDER BY id", arguments: [notification])
            .map(Self.entry)
    }

    /// The latest `count` decisions, of `app` when given, newest first.
    public static func recent(_ db: Database, app: String? = nil, count: Int = 50) throws -> [Entry] {
        let rows =
            if let app {
                try GRDB.Row.fetchAll(db, sql: "SELECT * FROM decision_history WHERE app = ? ORDER BY id DESC LIMIT ?", arguments: [app, count])
            } else {
                try GRDB.Row.fetchAll(db, sql: "SELECT * FROM decision_history ORDER BY id DESC LIMIT ?", arguments: [count])
            }
        return rows.map(Self.entry)
    }

    /// Forgets every row (unpairing).
    public static func reset(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM decision_history")
    }

    private static func entry(_ row: GRDB.Row) -> Entry {
        Entry(
            at: row["at"], notification: row["notification"], revision: UInt64(clamping: row["revision"] as Int64), app: row["app"],
            alerted: row["alerted"], reason: row["reason"])
    }
}
