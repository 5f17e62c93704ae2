public import Foundation
public import GRDB

/// The apps' signals for responses from the wearable, stored in the transaction that applies
/// the response and deleted once emitted: a relay-phone killed between the two emits them when
/// it starts again, so a response reaches its app at least once (twice only if the kill falls
/// between the emission and the deletion's commit). What a signal is, is the centre owner's
/// encoding; each is kept with the id of the bus it was for, since unique names there mean
/// nothing on another bus.
public enum SignalOutboxTable {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: "CREATE TABLE signal_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, bus TEXT NOT NULL, signal BLOB NOT NULL)")
    }

    /// A stored signal.
    public struct Row: Sendable, Hashable {
        /// Its place in the outbox.
        public var seq: Int64
        /// The id of the bus it was for (`org.freedesktop.DBus.GetId`).
        public var bus: String
        /// The signal, as its owner encoded it.
        public var signal: Data
    }

    /// Stores signals to emit on bus `bus`, in order; returns the last one's place, `nil` for none.
    @discardableResult
    public static func append(_ db: Database, _ signals: [Data], bus: String) throws -> Int64? {
        for signal in signals {
            try db.cachedStatement(sql: "INSERT INTO signal_outbox (bus, signal) VALUES (?, ?)").execute(arguments: [bus, signal])
        }
        return signals.isEmpty ? nil : db.lastInsertedRowID
    }

    /// The signals stored and not yet emitted, oldest first.
    public static func load(_ db: Database) throws -> [Row] {
        try GRDB.Row.fetchAll(db, sql: "SELECT seq, bus, signal FROM signal_outbox ORDER BY seq").map { row in
            Row(seq: row["seq"], bus: row["bus"], signal: row["signal"])
        }
    }

    /// Forgets the signals up to `seq`: they have been emitted (or cannot be).
    public static func remove(_ db: Database, through seq: Int64) throws {
        try db.execute(sql: "DELETE FROM signal_outbox WHERE seq <= ?", arguments: [seq])
    }
}
