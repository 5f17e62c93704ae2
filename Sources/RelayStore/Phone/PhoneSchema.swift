public import Foundation
public import GRDB

/// The phone's database: the link's logs (its change log), the keys it assigned for the
/// wire, and the notification centre. Migrations are append-only.
public enum PhoneSchema {
    /// The migrations, oldest first.
    public static var migrations: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 link log, keys and centre") { db in
            try LinkLogTables.create(db)
            try db.execute(
                sql: """
                    CREATE TABLE wire_key (
                        kind TEXT NOT NULL,
                        name TEXT NOT NULL,
                        key INTEGER NOT NULL,
                        PRIMARY KEY (kind, name),
                        UNIQUE (kind, key)
                    );
                    CREATE TABLE centre_notification (
                        centre_id INTEGER PRIMARY KEY,
                        key INTEGER UNIQUE,
                        revision INTEGER NOT NULL,
                        record BLOB NOT NULL
                    );
                    CREATE TABLE centre_state (name TEXT PRIMARY KEY, value BLOB NOT NULL);
                    """)
        }
        migrator.registerMigration("v2 occurrences") { db in
            try OccurrenceTable.create(db)
        }
        migrator.registerMigration("v3 signal outbox") { db in
            try SignalOutboxTable.create(db)
        }
        migrator.registerMigration("v4 centre keys indexed only when assigned") { db in
            // A notification has a wire key only once it is mirrored: until a wearable is
            // paired, every row's is NULL, and a plain UNIQUE column still indexed each one,
            // which every Notify (an insert) and every notification pushed out (a delete)
            // paid for. Keys stay unique where they exist.
            try db.execute(
                sql: """
                    CREATE TABLE centre_notification_v4 (
                        centre_id INTEGER PRIMARY KEY,
                        key INTEGER,
                        revision INTEGER NOT NULL,
                        record BLOB NOT NULL
                    );
                    INSERT INTO centre_notification_v4 (centre_id, key, revision, record)
                        SELECT centre_id, key, revision, record FROM centre_notification;
                    DROP TABLE centre_notification;
                    ALTER TABLE centre_notification_v4 RENAME TO centre_notification;
                    CREATE UNIQUE INDEX centre_notification_key ON centre_notification (key) WHERE key IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v5 decision history") { db in
            // What the phone decided about each notification (mirrored or not, an alert asked or
            // not) and what the wearable reported deciding, a week of it (`relayctl why --phone`).
            try DecisionHistoryTable.create(db)
        }
        return migrator
    }

    // MARK: Keys

    /// Every key assigned so far, by kind ("app", "category", "thread", "notification").
    public static func loadKeys(_ db: Database) throws -> [String: [String: UInt64]] {
        var keys: [String: [String: UInt64]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT kind, name, key FROM wire_key") {
            keys[row["kind"], default: [:]][row["name"]] = UInt64(row["key"] as Int64)
        }
        return keys
    }

    /// Records a newly assigned key.
    public static func saveKey(_ db: Database, kind: String, name: String, key: UInt64) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO wire_key (kind, name, key) VALUES (?, ?, ?)")
            .execute(arguments: [kind, name, Int64(key)])
    }

    // MARK: The centre

    /// A stored notification: the centre's record of it (encoded by the centre's owner) and,
    /// when it is mirrored, its wire key and last revision.
    public struct StoredNotification: Sendable, Hashable {
        /// The id the centre (and the freedesktop client) knows it by.
        public var centreID: UInt32
        /// The key on the wire; `nil` when it is not mirrored.
        public var key: UInt64?
        /// The last revision sent.
        public var revision: UInt64
        /// The centre's record.
        public var record: Data

        /// Creates a stored notification.
        public init(centreID: UInt32, key: UInt64?, revision: UInt64, record: Data) {
            self.centreID = centreID
            self.key = key
            self.revision = revision
            self.record = record
        }
    }

    /// The stored notifications, by centre id.
    public static func loadNotifications(_ db: Database) throws -> [StoredNotification] {
        try Row.fetchAll(db, sql: "SELECT * FROM centre_notification ORDER BY centre_id").map { row in
            StoredNotification(
                centreID: UInt32(row["centre_id"] as Int64), key: (row["key"] as Int64?).map { UInt64($0) },
                revision: UInt64(row["revision"] as Int64), record: row["record"])
        }
    }

    /// Stores notifications (new or changed), and the highest of their ids as the highest handed
    /// out if it is. Every `Notify` comes here, so the statements are prepared once per
    /// connection (as are the others of the hot path).
    public static func save(_ db: Database, _ notifications: [StoredNotification]) throws {
        guard let highest = notifications.map(\.centreID).max() else { return }
        let insert = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO centre_notification (centre_id, key, revision, record) VALUES (?, ?, ?, ?)")
        for notification in notifications {
            try insert.execute(
                arguments: [
                    Int64(notification.centreID), notification.key.map { Int64($0) }, Int64(notification.revision),
                    notification.record,
                ])
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO centre_state (name, value) VALUES ('last_id', ?)
                ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)
                """
        ).execute(arguments: [Int64(highest)])
    }

    /// Forgets every notification's wire key and revision (a new partner: nothing is mirrored
    /// to it yet); the records stay.
    public static func forgetMirroredKeys(_ db: Database) throws {
        try db.execute(sql: "UPDATE centre_notification SET key = NULL, revision = 0")
    }

    /// Stores the wire key and revision a notification is mirrored under.
    public static func saveMirroredKey(_ db: Database, centreID: UInt32, key: UInt64, revision: UInt64) throws {
        try db.cachedStatement(sql: "UPDATE centre_notification SET key = ?, revision = ? WHERE centre_id = ?")
            .execute(arguments: [Int64(key), Int64(revision), Int64(centreID)])
    }

    /// The highest centre id ever stored: ids of closed notifications are not handed out again
    /// after a restart, where an app could still hold one (its `replaces_id`, its `CloseNotification`).
    public static func lastCentreID(_ db: Database) throws -> UInt32 {
        UInt32(clamping: try Int64.fetchOne(db, sql: "SELECT value FROM centre_state WHERE name = 'last_id'") ?? 0)
    }

    /// Removes notifications. A round of `Notify` calls at an app's limit pushes out one each,
    /// the app's oldest, whose ids mostly run on without a gap: each run goes with one range
    /// statement, a walk along the table. Ids too scattered for that go with one statement
    /// that looks each up.
    public static func deleteNotifications(_ db: Database, centreIDs: [UInt32]) throws {
        let runs = consecutiveRuns(centreIDs)
        guard runs.count <= 4 else {
            let list = "[" + centreIDs.map(String.init).joined(separator: ",") + "]"
            try db.cachedStatement(sql: "DELETE FROM centre_notification WHERE centre_id IN (SELECT value FROM json_each(?))")
                .execute(arguments: [list])
            return
        }
        let range = try db.cachedStatement(sql: "DELETE FROM centre_notification WHERE centre_id BETWEEN ? AND ?")
        for run in runs {
            try range.execute(arguments: [Int64(run.lowerBound), Int64(run.upperBound)])
        }
    }

    /// The ids as runs of consecutive ids, ascending.
    static func consecutiveRuns(_ ids: [UInt32]) -> [ClosedRange<UInt32>] {
        var runs: [ClosedRange<UInt32>] = []
        for id in ids.sorted() {
            if let last = runs.last, last.upperBound < id, id - last.upperBound <= 1 {
                runs[runs.count - 1] = last.lowerBound...id
            } else if runs.last?.contains(id) != true {
                runs.append(id...id)
            }
        }
        return runs
    }

    /// A named value of the centre's own (the last id handed out, pending requests, categories).
    public static func value(_ db: Database, _ name: String) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT value FROM centre_state WHERE name = ?", arguments: [name])
    }

    /// Stores a named value of the centre's.
    public static func setValue(_ db: Database, _ name: String, _ value: Data) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO centre_state (name, value) VALUES (?, ?)")
            .execute(arguments: [name, value])
    }

    /// Forgets a named value of the centre's.
    public static func removeValue(_ db: Database, _ name: String) throws {
        try db.execute(sql: "DELETE FROM centre_state WHERE name = ?", arguments: [name])
    }

    /// The manual lock override (`relayctl lock`, `unlock`): `nil` when the lock state is automatic.
    public static func lockOverride(_ db: Database) throws -> Bool? {
        try Bool.fetchOne(db, sql: "SELECT value FROM centre_state WHERE name = 'lock_override'")
    }

    /// Stores the manual lock override; `nil` makes the lock state automatic again.
    public static func setLockOverride(_ db: Database, _ locked: Bool?) throws {
        if let locked {
            try db.execute(sql: "INSERT OR REPLACE INTO centre_state (name, value) VALUES ('lock_override', ?)", arguments: [locked])
        } else {
            try db.execute(sql: "DELETE FROM centre_state WHERE name = 'lock_override'")
        }
    }

    /// The manual do not disturb as an earlier version stored it (`relayctl dnd`, now among the
    /// shared wishes, which take it over): `nil` when off, else until when (`nil`: until turned
    /// off), as seconds since 1970.
    public static func doNotDisturb(_ db: Database) throws -> Double?? {
        guard let value = try Double.fetchOne(db, sql: "SELECT value FROM centre_state WHERE name = 'dnd_until'") else { return nil }
        return .some(value > 0 ? value : nil)
    }

    /// Forgets the link's logs (unpairing); the centre and its keys stay.
    public static func forgetLink(_ db: Database) throws {
        try LinkLogTables.reset(db)
    }
}
