import Foundation
public import GRDB
public import RelayWire
import SwiftProtobuf

/// The wearable's database: the link's logs (its outbox of events) and the replica's tables,
/// in the phone's wire terms (WearableAgent maps its replica state onto them).
/// Migrations are append-only: a shipped one never changes, a new schema is a new migration.
public enum WearableSchema {
    /// The migrations, oldest first.
    public static var migrations: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 link log and replica") { db in
            try LinkLogTables.create(db)
            try db.execute(
                sql: """
                    CREATE TABLE replica_notification (
                        key INTEGER PRIMARY KEY,
                        revision INTEGER NOT NULL,
                        app_key INTEGER NOT NULL,
                        content BLOB NOT NULL,
                        delivered_at INTEGER NOT NULL,
                        alerted INTEGER NOT NULL
                    );
                    CREATE TABLE replica_tombstone (key INTEGER PRIMARY KEY, revision INTEGER NOT NULL);
                    CREATE TABLE replica_app (key INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE replica_category (key INTEGER PRIMARY KEY, body BLOB NOT NULL);
                    CREATE TABLE replica_settings (id INTEGER PRIMARY KEY CHECK (id = 1), body BLOB NOT NULL);
                    """)
        }
        migrator.registerMigration("v2 schedules") { db in
            try db.execute(sql: "CREATE TABLE replica_schedule (key INTEGER PRIMARY KEY, body BLOB NOT NULL)")
        }
        migrator.registerMigration("v3 local firing") { db in
            try db.execute(
                sql: """
                    ALTER TABLE replica_notification ADD COLUMN occurrence BLOB;
                    CREATE TABLE local_firing (schedule_key INTEGER PRIMARY KEY, handled_through INTEGER NOT NULL);
                    CREATE TABLE local_firing_floor (id INTEGER PRIMARY KEY CHECK (id = 1), floor INTEGER NOT NULL);
                    """)
            try OccurrenceTable.create(db)
        }
        migrator.registerMigration("v4 snapshot progress") { db in
            try SnapshotProgressTable.create(db)
        }
        migrator.registerMigration("v5 answered") { db in
            try db.execute(sql: "ALTER TABLE replica_notification ADD COLUMN answered INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v6 decision history") { db in
            try DecisionHistoryTable.create(db)
        }
        migrator.registerMigration("v7 shared preferences") { db in
            // Row 1: the wishes shared with the phone; row 2: the wearable's own do not disturb
            // when it is not shared. Kept across unpairing: they are the user's, not the phone's.
            try db.execute(sql: "CREATE TABLE preferences (id INTEGER PRIMARY KEY CHECK (id IN (1, 2)), body BLOB NOT NULL)")
        }
        migrator.registerMigration("v8 default action") { db in
            try db.execute(sql: "ALTER TABLE replica_notification ADD COLUMN default_action INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }

    /// A notification's row in the replica: the phone's key and revision, what it says and how
    /// the wearable handled it.
    public struct NotificationRow: Sendable, Hashable {
        /// The phone's key.
        public var key: UInt64
        /// The revision last applied.
        public var revision: UInt64
        /// The posting app's key.
        public var appKey: UInt32
        /// What it says.
        public var content: Relay_V1_Content
        /// When the phone delivered it, seconds since 1970 UTC.
        public var deliveredAt: Int64
        /// Whether the wearable alerted for it.
        public var alerted: Bool
        /// The occurrence of a scheduled request it shows, if a schedule fired it.
        public var occurrence: Relay_V1_Occurrence?
        /// Whether the user answered this revision on the wearable.
        public var answered: Bool
        /// Whether the phone can carry out its default action ("Open on phone").
        public var defaultAction: Bool

        /// Creates a row.
        public init(
            key: UInt64, revision: UInt64, appKey: UInt32, content: Relay_V1_Content, deliveredAt: Int64, alerted: Bool,
            occurrence: Relay_V1_Occurrence?, answered: Bool, defaultAction: Bool = false
        ) {
            self.defaultAction = defaultAction
            self.key = key
            self.revision = revision
            self.appKey = appKey
            self.content = content
            self.deliveredAt = deliveredAt
            self.alerted = alerted
            self.occurrence = occurrence
            self.answered = answered
        }
    }

    /// The replica's notifications.
    public static func loadNotifications(_ db: Database) throws -> [NotificationRow] {
        try Row.fetchAll(db, sql: "SELECT * FROM replica_notification").map { row in
            NotificationRow(
                key: UInt64(bitPattern: row["key"] as Int64), revision: UInt64(row["revision"] as Int64),
                appKey: UInt32(row["app_key"] as Int64),
                content: try Relay_V1_Content(serializedBytes: row["content"] as Data),
                deliveredAt: row["delivered_at"], alerted: row["alerted"],
                occurrence: try (row["occurrence"] as Data?).map { try Relay_V1_Occurrence(serializedBytes: $0) },
                answered: row["answered"], defaultAction: row["default_action"])
        }
    }

    /// The tombstones: removed notifications' keys and the revisions of their removals.
    public static func loadTombstones(_ db: Database) throws -> [UInt64: UInt64] {
        var tombstones: [UInt64: UInt64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, revision FROM replica_tombstone") {
            tombstones[UInt64(bitPattern: row["key"] as Int64)] = UInt64(row["revision"] as Int64)
        }
        return tombstones
    }

    /// The apps' names by key.
    public static func loadApps(_ db: Database) throws -> [UInt32: String] {
        var apps: [UInt32: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, name FROM replica_app") {
            apps[UInt32(row["key"] as Int64)] = row["name"]
        }
        return apps
    }

    /// The categories.
    public static func loadCategories(_ db: Database) throws -> [Relay_V1_CategoryUpsert] {
        try Row.fetchAll(db, sql: "SELECT body FROM replica_category").map {
            try Relay_V1_CategoryUpsert(serializedBytes: $0["body"] as Data)
        }
    }

    /// The phone's scheduled requests.
    public static func loadSchedules(_ db: Database) throws -> [Relay_V1_ScheduleUpsert] {
        try Row.fetchAll(db, sql: "SELECT body FROM replica_schedule").map {
            try Relay_V1_ScheduleUpsert(serializedBytes: $0["body"] as Data)
        }
    }

    /// The phone's settings, if any were stored.
    public static func loadSettings(_ db: Database) throws -> Relay_V1_Settings? {
        try Data.fetchOne(db, sql: "SELECT body FROM replica_settings WHERE id = 1").map {
            try Relay_V1_Settings(serializedBytes: $0)
        }
    }

    /// The instant up to which occurrences are the phone's; 0 before any was stored.
    public static func loadFiringFloor(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT floor FROM local_firing_floor WHERE id = 1") ?? 0
    }

    /// Per scheduled request: the latest occurrence the wearable has handled.
    public static func loadHandled(_ db: Database) throws -> [UInt64: Int64] {
        var handled: [UInt64: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT schedule_key, handled_through FROM local_firing") {
            handled[UInt64(bitPattern: row["schedule_key"] as Int64)] = row["handled_through"]
        }
        return handled
    }

    /// Stores a notification (new or a newer revision) and clears its tombstone.
    public static func save(_ db: Database, _ record: NotificationRow) throws {
        // Prepared once per connection: a notification is saved with every change to it.
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO replica_notification
                (key, revision, app_key, content, delivered_at, alerted, occurrence, answered, default_action) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            Int64(bitPattern: record.key), Int64(record.revision), Int64(record.appKey),
            try record.content.serializedBytes() as Data, record.deliveredAt, record.alerted,
            try record.occurrence.map { try $0.serializedBytes() as Data }, record.answered, record.defaultAction,
        ])
        try db.cachedStatement(sql: "DELETE FROM replica_tombstone WHERE key = ?")
            .execute(arguments: [Int64(bitPattern: record.key)])
    }

    /// Marks a notification as answered on the wearable.
    public static func markAnswered(_ db: Database, key: UInt64) throws {
        try db.cachedStatement(sql: "UPDATE replica_notification SET answered = 1 WHERE key = ?")
            .execute(arguments: [Int64(bitPattern: key)])
    }

    /// Removes a notification and leaves its tombstone.
    public static func remove(_ db: Database, key: UInt64, revision: UInt64) throws {
        try db.cachedStatement(sql: "DELETE FROM replica_notification WHERE key = ?")
            .execute(arguments: [Int64(bitPattern: key)])
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO replica_tombstone VALUES (?, ?)")
            .execute(arguments: [Int64(bitPattern: key), Int64(revision)])
    }

    /// Forgets every tombstone (a snapshot is the whole state).
    public static func clearTombstones(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM replica_tombstone")
    }

    /// Forgets some tombstones.
    public static func dropTombstones(_ db: Database, keys: [UInt64]) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM replica_tombstone WHERE key = ?")
        for key in keys { try statement.execute(arguments: [Int64(bitPattern: key)]) }
    }

    /// Names an app.
    public static func saveApp(_ db: Database, key: UInt32, name: String) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO replica_app VALUES (?, ?)")
            .execute(arguments: [Int64(key), name])
    }

    /// Forgets an app.
    public static func removeApp(_ db: Database, key: UInt32) throws {
        try db.cachedStatement(sql: "DELETE FROM replica_app WHERE key = ?").execute(arguments: [Int64(key)])
    }

    /// Stores a category.
    public static func saveCategory(_ db: Database, _ category: Relay_V1_CategoryUpsert) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO replica_category VALUES (?, ?)",
            arguments: [Int64(category.category.key), try category.serializedBytes() as Data])
    }

    /// Removes a category.
    public static func removeCategory(_ db: Database, key: UInt32) throws {
        try db.cachedStatement(sql: "DELETE FROM replica_category WHERE key = ?").execute(arguments: [Int64(key)])
    }

    /// The preferences stored in row `row` (1: shared, 2: the wearable's own), if any.
    public static func loadPreferences(_ db: Database, row: Int) throws -> Relay_V1_Preferences? {
        try Data.fetchOne(db, sql: "SELECT body FROM preferences WHERE id = ?", arguments: [row]).map {
            try Relay_V1_Preferences(serializedBytes: $0)
        }
    }

    /// Stores the preferences in row `row` (1: shared, 2: the wearable's own).
    public static func savePreferences(_ db: Database, row: Int, _ preferences: Relay_V1_Preferences) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO preferences VALUES (?, ?)")
            .execute(arguments: [row, try preferences.serializedBytes() as Data])
    }

    /// Stores the phone's settings.
    public static func saveSettings(_ db: Database, _ settings: Relay_V1_Settings) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO replica_settings VALUES (1, ?)")
            .execute(arguments: [try settings.serializedBytes() as Data])
    }

    /// Stores a scheduled request.
    public static func saveSchedule(_ db: Database, _ schedule: Relay_V1_ScheduleUpsert) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO replica_schedule VALUES (?, ?)",
            arguments: [Int64(schedule.key), try schedule.serializedBytes() as Data])
    }

    /// Removes a scheduled request.
    public static func removeSchedule(_ db: Database, key: UInt64) throws {
        try db.cachedStatement(sql: "DELETE FROM replica_schedule WHERE key = ?").execute(arguments: [Int64(key)])
    }

    /// Stores the instant up to which occurrences are the phone's.
    public static func saveFiringFloor(_ db: Database, _ floor: Int64) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO local_firing_floor VALUES (1, ?)")
            .execute(arguments: [floor])
    }

    /// Stores the latest occurrence of a request the wearable has handled.
    public static func saveHandled(_ db: Database, scheduleKey: UInt64, through fireDate: Int64) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO local_firing VALUES (?, ?)")
            .execute(arguments: [Int64(bitPattern: scheduleKey), fireDate])
    }

    /// Forgets the whole replica and the link's logs (unpairing).
    public static func forgetAll(_ db: Database) throws {
        for table in [
            "replica_notification", "replica_tombstone", "replica_app", "replica_category", "replica_settings", "replica_schedule",
            "local_firing", "local_firing_floor", "occurrence", "decision_history",
        ] {
            try db.execute(sql: "DELETE FROM \(table)")
        }
        try SnapshotProgressTable.clear(db)
        try LinkLogTables.reset(db)
    }
}
