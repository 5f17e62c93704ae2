public import GRDB

/// The stored form of a snapshot in progress (`SnapshotProgress`): one row for its epoch while
/// it lasts, and one row per thing it mentioned.
public enum SnapshotProgressTable {
    /// Creates the tables (the wearable's migration "v4 snapshot progress").
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE snapshot_progress (id INTEGER PRIMARY KEY CHECK (id = 1), epoch INTEGER NOT NULL);
                CREATE TABLE snapshot_mention (kind INTEGER NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (kind, key)) WITHOUT ROWID;
                """)
    }

    /// A snapshot began: forgets any earlier one's mentions.
    public static func begin(_ db: Database, epoch: UInt64) throws {
        try clear(db)
        try db.execute(sql: "INSERT INTO snapshot_progress VALUES (1, ?)", arguments: [Int64(bitPattern: epoch)])
    }

    /// Records one mention of the snapshot in progress.
    public static func mention(_ db: Database, _ mention: SnapshotProgress.Mention) throws {
        let (kind, key) = Self.row(of: mention)
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO snapshot_mention VALUES (?, ?)").execute(arguments: [kind, key])
    }

    /// The snapshot ended (or the replica was forgotten): nothing is in progress.
    public static func clear(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM snapshot_progress; DELETE FROM snapshot_mention")
    }

    /// The snapshot in progress, if one is.
    public static func load(_ db: Database) throws -> SnapshotProgress? {
        guard let epoch = try Int64.fetchOne(db, sql: "SELECT epoch FROM snapshot_progress WHERE id = 1") else { return nil }
        var progress = SnapshotProgress(epoch: UInt64(bitPattern: epoch))
        for row in try Row.fetchAll(db, sql: "SELECT kind, key FROM snapshot_mention") {
            let key: Int64 = row["key"]
            switch row["kind"] as Int64 {
            case Kind.notification: progress.insert(.notification(UInt64(bitPattern: key)))
            case Kind.category: progress.insert(.category(UInt32(truncatingIfNeeded: key)))
            case Kind.app: progress.insert(.app(UInt32(truncatingIfNeeded: key)))
            case Kind.schedule: progress.insert(.schedule(UInt64(bitPattern: key)))
            default: continue  // a kind a newer version stored; not ours to judge
            }
        }
        return progress
    }

    /// The `kind` column's values.
    private enum Kind {
        static let notification: Int64 = 0
        static let category: Int64 = 1
        static let app: Int64 = 2
        static let schedule: Int64 = 3
    }

    private static func row(of mention: SnapshotProgress.Mention) -> (Int64, Int64) {
        switch mention {
        case .notification(let key): (Kind.notification, Int64(bitPattern: key))
        case .category(let key): (Kind.category, Int64(key))
        case .app(let key): (Kind.app, Int64(key))
        case .schedule(let key): (Kind.schedule, Int64(bitPattern: key))
        }
    }
}
