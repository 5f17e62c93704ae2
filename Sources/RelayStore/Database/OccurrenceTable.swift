public import GRDB

/// Each device's record of the occurrences of scheduled requests: which fired where, and whether
/// the wearable's own firings have been reconciled with the phone (Docs/PHONE.md, "Out of range").
///
/// An occurrence is identified by its request and fire date on both devices; the phone names a
/// request by its app and identifier, the wearable by the request's wire key in decimal. Rows older
/// than a week are pruned as new ones arrive.
public enum OccurrenceTable {
    /// One occurrence as recorded.
    public struct Row: Sendable, Hashable {
        /// The request: `app\u{1F}identifier` on the phone, the wire key on the wearable.
        public var schedule: String
        /// The fire date, seconds since 1970 UTC.
        public var fireDate: Int64
        /// The phone presented it (fired it, or took over the wearable's firing).
        public var onPhone: Bool
        /// The wearable fired it by itself while apart.
        public var onWearable: Bool
        /// The wearable alerted for it while apart.
        public var alertedOnWearable: Bool
        /// The wearable's firing has been matched with the phone's notification for it.
        public var reconciled: Bool
    }

    /// Where an occurrence was seen.
    public enum Side: Sendable {
        /// The phone fired it (or took it over).
        case phone
        /// The wearable fired it by itself; `alerted` when it buzzed.
        case wearable(alerted: Bool)
    }

    /// How long rows are kept.
    static let retentionSeconds: Int64 = 7 * 24 * 3600

    /// Creates the table (called by each schema's migration).
    public static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE occurrence (
                    schedule TEXT NOT NULL,
                    fire_date INTEGER NOT NULL,
                    on_phone INTEGER NOT NULL DEFAULT 0,
                    on_wearable INTEGER NOT NULL DEFAULT 0,
                    alerted_on_wearable INTEGER NOT NULL DEFAULT 0,
                    reconciled INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (schedule, fire_date)
                )
                """)
    }

    /// Records that an occurrence was seen on `side`; seeing it again adds to the row.
    public static func record(_ db: Database, schedule: String, fireDate: Int64, side: Side) throws {
        let (phone, wearable, alerted): (Bool, Bool, Bool) =
            switch side {
            case .phone: (true, false, false)
            case .wearable(let alerted): (false, true, alerted)
            }
        try db.execute(
            sql: """
                INSERT INTO occurrence (schedule, fire_date, on_phone, on_wearable, alerted_on_wearable)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (schedule, fire_date) DO UPDATE SET
                    on_phone = on_phone OR excluded.on_phone,
                    on_wearable = on_wearable OR excluded.on_wearable,
                    alerted_on_wearable = alerted_on_wearable OR excluded.alerted_on_wearable
                """,
            arguments: [schedule, fireDate, phone, wearable, alerted])
        try db.execute(sql: "DELETE FROM occurrence WHERE fire_date < ?", arguments: [fireDate - retentionSeconds])
    }

    /// Marks the wearable's firings of `schedule` up to `fireDate` as reconciled with the phone.
    public static func reconcile(_ db: Database, schedule: String, through fireDate: Int64) throws {
        try db.execute(
            sql: "UPDATE occurrence SET reconciled = 1 WHERE schedule = ? AND fire_date <= ? AND on_wearable",
            arguments: [schedule, fireDate])
    }

    /// Every row, oldest first.
    public static func load(_ db: Database) throws -> [Row] {
        try GRDB.Row.fetchAll(db, sql: "SELECT * FROM occurrence ORDER BY fire_date, schedule").map { row in
            Row(
                schedule: row["schedule"], fireDate: row["fire_date"], onPhone: row["on_phone"], onWearable: row["on_wearable"],
                alertedOnWearable: row["alerted_on_wearable"], reconciled: row["reconciled"])
        }
    }

    /// How many of the wearable's own firings wait to be matched by the phone.
    public static func unreconciledCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM occurrence WHERE on_wearable AND NOT reconciled") ?? 0
    }

    /// Forgets every row (unpairing, on the wearable).
    public static func reset(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM occurrence")
    }
}
