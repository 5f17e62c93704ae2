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
                    id INTEGER PRIMARY KEY,
                    at INTEGER NOT NULL,
                    notification TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    app TEXT NOT NULL,
                    alerted INTEGER NOT NULL,
                    reason TEXT NOT NULL
                );
                CREATE INDEX decision_history_notification ON decision_history (notification);
                CREATE INDEX decision_history_at ON decision_history (at);
                """)
    }

    /// Records a decision, and drops what is beyond the limit and what is older than a week
    /// before it. Cheap per row (a snapshot records hundreds in one transaction): cached
    /// statements, the limit by the row id (which counts up), the age by an index.
    public static func record(_ db: Database, _ entry: Entry) throws {
        try db.cachedStatement(sql: "INSERT INTO decision_history (at, notification, revision, app, alerted, reason) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [entry.at, entry.notification, Int64(clamping: entry.revision), entry.app, entry.alerted, entry.reason])
        let id = db.lastInsertedRowID
        try db.cachedStatement(sql: "DELETE FROM decision_history WHERE id <= ?").execute(arguments: [id - Int64(limit)])
        try prune(db, now: entry.at)
    }

    /// Drops what is older than a week before `now` (seconds since 1970): at each record, and at
    /// start-up for a wearable that decided nothing for a week.
    public static func prune(_ db: Database, now: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM decision_history WHERE at < ?").execute(arguments: [now - retentionSeconds])
    }

    /// The decisions about `notification` in the week before `now`, oldest first.
    public static func entries(_ db: Database, notification: String, now: Int64) throws -> [Entry] {
        try GRDB.Row.fetchAll(
            db, sql: "SELECT * FROM decision_history WHERE notification = ? AND at >= ? ORDER BY id",
            arguments: [notification, now - retentionSeconds]
        ).map(Self.entry)
    }

    /// The latest `count` decisions in the week before `now`, of `app` when given, newest first.
    public static func recent(_ db: Database, app: String? = nil, count: Int = 50, now: Int64) throws -> [Entry] {
        let rows =
            if let app {
                try GRDB.Row.fetchAll(
                    db, sql: "SELECT * FROM decision_history WHERE app = ? AND at >= ? ORDER BY id DESC LIMIT ?",
                    arguments: [app, now - retentionSeconds, count])
            } else {
                try GRDB.Row.fetchAll(
                    db, sql: "SELECT * FROM decision_history WHERE at >= ? ORDER BY id DESC LIMIT ?", arguments: [now - retentionSeconds, count])
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
