public import GRDB

/// The stored form of a snapshot in progress: one row for its epoch while it lasts, and one row
/// per thing it mentioned (WearableAgent's `SnapshotProgress` maps onto it).
public enum SnapshotProgressTable {
    /// What a mention names; the raw values are the `kind` column's.
    public enum Kind: Int64, Sendable {
        /// A notification, by its UInt64 key.
        case notification = 0
        /// A category, by its UInt32 key.
        case category = 1
        /// An app, by its UInt32 key.
        case app = 2
        /// A scheduled request, by its UInt64 key.
        case schedule = 3
    }

    /// A snapshot in progress as stored.
    public struct Stored: Sendable, Hashable {
        /// The epoch of its `SnapshotBegin`.
        public var epoch: UInt64
        /// What it mentioned; keys of kinds this version does not know are left out.
        public var mentions: [Mention]
    }

    /// One stored mention: a kind and its key (a UInt32 key widened).
    public struct Mention: Sendable, Hashable {
        /// What the key names.
        public var kind: Kind
        /// The key.
        public var key: UInt64

        /// Creates a mention.
        public init(kind: Kind, key: UInt64) {
            self.kind = kind
            self.key = key
        }
    }

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
    public static func mention(_ db: Database, _ mention: Mention) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO snapshot_mention VALUES (?, ?)")
            .execute(arguments: [mention.kind.rawValue, Int64(bitPattern: mention.key)])
    }

    /// The snapshot ended (or the replica was forgotten): nothing is in progress.
    public static func clear(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM snapshot_progress; DELETE FROM snapshot_mention")
    }

    /// The snapshot in progress, if one is.
    public static func load(_ db: Database) throws -> Stored? {
        guard let epoch = try Int64.fetchOne(db, sql: "SELECT epoch FROM snapshot_progress WHERE id = 1") else { return nil }
        let mentions = try Row.fetchAll(db, sql: "SELECT kind, key FROM snapshot_mention").compactMap { row -> Mention? in
            // A kind a newer version stored is not ours to judge.
            guard let kind = Kind(rawValue: row["kind"]) else { return nil }
            return Mention(kind: kind, key: UInt64(bitPattern: row["key"] as Int64))
        }
        return Stored(epoch: UInt64(bitPattern: epoch), mentions: mentions)
    }
}
