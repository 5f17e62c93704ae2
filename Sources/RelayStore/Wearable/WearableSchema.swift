import Foundation
public import GRDB
public import RelayWire
import SwiftProtobuf

/// The wearable's database: the link's logs (its outbox of events) and the replica.
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
        return migrator
    }

    /// The replica as stored.
    public static func loadReplica(_ db: Database) throws -> ReplicaContents {
        var contents = ReplicaContents()
        for row in try Row.fetchAll(db, sql: "SELECT * FROM replica_notification") {
            let record = ReplicaRecord(
                key: UInt64(bitPattern: row["key"] as Int64), revision: UInt64(row["revision"] as Int64),
                appKey: UInt32(row["app_key"] as Int64),
                content: try Relay_V1_Content(serializedBytes: row["content"] as Data),
                deliveredAt: row["delivered_at"], alerted: row["alerted"],
                occurrence: try (row["occurrence"] as Data?).map { try Relay_V1_Occurrence(serializedBytes: $0) },
                answered: row["answered"])
            contents.notifications[record.key] = record
        }
        for row in try Row.fetchAll(db, sql: "SELECT key, revision FROM replica_tombstone") {
            contents.tombstones[UInt64(bitPattern: row["key"] as Int64)] = UInt64(row["revision"] as Int64)
        }
        for row in try Row.fetchAll(db, sql: "SELECT key, name FROM replica_app") {
            contents.apps[UInt32(row["key"] as Int64)] = row["name"]
        }
        for row in try Row.fetchAll(db, sql: "SELECT body FROM replica_category") {
            let category = try Relay_V1_CategoryUpsert(serializedBytes: row["body"] as Data)
            contents.categories[category.category.key] = category
        }
        for row in try Row.fetchAll(db, sql: "SELECT body FROM replica_schedule") {
            let schedule = try Relay_V1_ScheduleUpsert(serializedBytes: row["body"] as Data)
            contents.schedules[schedule.key] = schedule
        }
        contents.firing.floor = try Int64.fetchOne(db, sql: "SELECT floor FROM local_firing_floor WHERE id = 1") ?? 0
        for row in try Row.fetchAll(db, sql: "SELECT schedule_key, handled_through FROM local_firing") {
            contents.firing.handledThrough[UInt64(bitPattern: row["schedule_key"] as Int64)] = row["handled_through"]
        }
        for row in try OccurrenceTable.load(db) where row.onWearable && !row.reconciled {
            guard let key = UInt64(row.schedule) else { continue }
            contents.firing.unreconciled[key] = max(contents.firing.unreconciled[key] ?? row.fireDate, row.fireDate)
        }
        if let body = try Data.fetchOne(db, sql: "SELECT body FROM replica_settings WHERE id = 1") {
            contents.settings = try Relay_V1_Settings(serializedBytes: body)
        }
        contents.snapshot = try SnapshotProgressTable.load(db)
        return contents
    }

    /// Stores a notification (new or a newer revision) and clears its tombstone.
    public static func save(_ db: Database, _ record: ReplicaRecord) throws {
        // Prepared once per connection: a notification is saved with every change to it.
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO replica_notification
                (key, revision, app_key, content, delivered_at, alerted, occurrence, answered) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            Int64(bitPattern: record.key), Int64(record.revision), Int64(record.appKey),
            try record.content.serializedBytes() as Data, record.deliveredAt, record.alerted,
            try record.occurrence.map { try $0.serializedBytes() as Data }, record.answered,
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
            "local_firing", "local_firing_floor", "occurrence",
        ] {
            try db.execute(sql: "DELETE FROM \(table)")
        }
        try SnapshotProgressTable.clear(db)
        try LinkLogTables.reset(db)
    }
}
