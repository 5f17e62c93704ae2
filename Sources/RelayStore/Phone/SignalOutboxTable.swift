public import Foundation
public import GRDB

/// The apps' signals for responses from the wearable, stored in the transaction that applies
/// the response and deleted once emitted: a relay-phone killed between the two emits them when
/// it starts again, so a response reaches its app at least once (twice only if the kill falls
/// between the emission and the deletion). What a signal is, is the centre owner's encoding.
public enum SignalOutboxTable {
    static func create(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE signal_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, signal BLOB NOT NULL)")
    }

    /// Stores signals to emit, in order.
    public static func append(_ db: Database, _ signals: [Data]) throws {
        for signal in signals {
            try db.cachedStatement(sql: "INSERT INTO signal_outbox (signal) VALUES (?)").execute(arguments: [signal])
        }
    }

    /// The signals stored and not yet emitted, oldest first.
    public static func load(_ db: Database) throws -> [Data] {
        try Data.fetchAll(db, sql: "SELECT signal FROM signal_outbox ORDER BY seq")
    }

    /// Forgets every stored signal: they have been emitted.
    public static func removeAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM signal_outbox")
    }
}
