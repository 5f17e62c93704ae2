import Foundation
public import GRDB
public import RelayLink
public import RelayWire
import SwiftProtobuf

/// Both agents' half of the link's durable state (Docs/PROTOCOL.md, "Logs"): this side's
/// outbound log and epoch, and its cursor into the peer's log. Every function runs inside
/// the caller's transaction, so a change and the cursor that records it commit together.
public enum LinkLogTables {
    /// Creates the tables; the first migration of both agents' schemas.
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE link_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    own_epoch INTEGER NOT NULL,
                    peer_epoch INTEGER NOT NULL,
                    applied_through INTEGER NOT NULL,
                    acknowledged_through INTEGER NOT NULL
                );
                CREATE TABLE outbound (seq INTEGER PRIMARY KEY, body BLOB NOT NULL);
                """)
        try db.execute(
            sql: "INSERT INTO link_state VALUES (1, ?, 0, 0, 0)", arguments: [Int64(bitPattern: freshEpoch())])
    }

    /// The logs as stored, for a new connection.
    public static func load(_ db: Database, window: Int = 64) throws -> LinkSession.Logs {
        let state = try State.fetch(db)
        let rows = try Row.fetchAll(db, sql: "SELECT seq, body FROM outbound ORDER BY seq")
        let entries = try rows.map { row in
            OutboundLog<Relay_V1_Envelope.OneOf_Body>.Entry(seq: UInt64(row["seq"] as Int64), body: try decode(row["body"]))
        }
        return LinkSession.Logs(
            outbound: OutboundLog(window: window, pending: entries, acknowledgedThrough: state.acknowledgedThrough),
            ownEpoch: state.ownEpoch, inbound: InboundCursor(appliedThrough: state.appliedThrough),
            peerEpoch: state.peerEpoch)
    }

    /// Persists an outbound entry and returns its sequence number.
    public static func append(_ db: Database, _ body: Relay_V1_Envelope.OneOf_Body) throws -> UInt64 {
        let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM outbound"))
        let seq = try last.map { UInt64($0) } ?? State.fetch(db).acknowledgedThrough
        var envelope = Relay_V1_Envelope()
        envelope.body = body
        try db.cachedStatement(sql: "INSERT INTO outbound (seq, body) VALUES (?, ?)")
            .execute(arguments: [Int64(seq + 1), try envelope.serializedBytes() as Data])
        return seq + 1
    }

    /// The peer has everything through `seq`: its entries may go.
    public static func acknowledge(_ db: Database, through seq: UInt64) throws {
        try db.cachedStatement(sql: "DELETE FROM outbound WHERE seq <= ?").execute(arguments: [Int64(seq)])
        try db.cachedStatement(sql: "UPDATE link_state SET acknowledged_through = max(acknowledged_through, ?)")
            .execute(arguments: [Int64(seq)])
    }

    /// Records that the peer's entry `seq` was applied (in the transaction that applied it).
    public static func applied(_ db: Database, through seq: UInt64) throws {
        try db.cachedStatement(sql: "UPDATE link_state SET applied_through = ?").execute(arguments: [Int64(seq)])
    }

    /// Whether entry `seq` of the peer's log is the next to apply; `false` if it was applied
    /// already (by an overlapping connection). A gap is an error. On `true` the cursor moves
    /// to `seq` in the caller's transaction.
    public static func claim(_ db: Database, seq: UInt64) throws -> Bool {
        let applied = try State.fetch(db).appliedThrough
        if seq <= applied { return false }
        guard seq == applied + 1 else {
            throw DatabaseError(message: "entry \(seq) of the peer's log arrived, but \(applied) is the last applied")
        }
        try self.applied(db, through: seq)
        return true
    }

    /// The peer started a new log: its entries count from 1 again.
    public static func peerLogReset(_ db: Database, epoch: UInt64) throws {
        try db.execute(
            sql: "UPDATE link_state SET peer_epoch = ?, applied_through = 0", arguments: [Int64(bitPattern: epoch)])
    }

    /// Starts a new outbound epoch: the old entries are dropped (the caller re-sends the
    /// whole state as a snapshot) and numbering starts at 1. `epoch` is the new epoch's number,
    /// for a caller that builds the snapshot before the transaction (`freshEpoch()`). Returns it.
    @discardableResult
    public static func startNewEpoch(_ db: Database, epoch: UInt64 = freshEpoch()) throws -> UInt64 {
        try db.execute(sql: "DELETE FROM outbound")
        try db.execute(
            sql: "UPDATE link_state SET own_epoch = ?, acknowledged_through = 0", arguments: [Int64(bitPattern: epoch)])
        return epoch
    }

    /// Starts a new outbound epoch that keeps the entries not yet acknowledged, numbered from 1
    /// (the wearable's answer to a phone that lost its cursor of the wearable's log: there is no
    /// snapshot of events, and what was not acknowledged must still arrive). Returns the new epoch.
    @discardableResult
    public static func startNewEpochKeepingUnacknowledged(_ db: Database) throws -> UInt64 {
        let epoch = freshEpoch()
        let acknowledged = Int64(try State.fetch(db).acknowledgedThrough)
        // Through negative numbers, so that no renumbered entry meets one not yet renumbered.
        try db.execute(sql: "UPDATE outbound SET seq = ? - seq", arguments: [acknowledged])
        try db.execute(sql: "UPDATE outbound SET seq = -seq")
        try db.execute(
            sql: "UPDATE link_state SET own_epoch = ?, acknowledged_through = 0", arguments: [Int64(bitPattern: epoch)])
        return epoch
    }

    /// Forgets the peer's log and this side's unsent entries (unpairing).
    public static func reset(_ db: Database) throws {
        try startNewEpoch(db)
        try db.execute(sql: "UPDATE link_state SET peer_epoch = 0, applied_through = 0")
    }

    /// How many outbound entries wait for an acknowledgement.
    public static func unacknowledgedCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM outbound") ?? 0
    }

    /// The stored cursors and epochs.
    public static func state(_ db: Database) throws -> State { try State.fetch(db) }

    /// The `link_state` row.
    public struct State: Sendable, Hashable {
        /// This side's log epoch.
        public var ownEpoch: UInt64
        /// The epoch of the peer's log the cursor counts in.
        public var peerEpoch: UInt64
        /// The last of the peer's entries applied.
        public var appliedThrough: UInt64
        /// The last of this side's entries the peer acknowledged.
        public var acknowledgedThrough: UInt64

        static func fetch(_ db: Database) throws -> State {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM link_state WHERE id = 1")) else {
                throw DatabaseError(message: "the link_state row is missing")
            }
            return State(
                ownEpoch: UInt64(bitPattern: row["own_epoch"]), peerEpoch: UInt64(bitPattern: row["peer_epoch"]),
                appliedThrough: UInt64(row["applied_through"] as Int64),
                acknowledgedThrough: UInt64(row["acknowledged_through"] as Int64))
        }
    }

    static func decode(_ bytes: Data) throws -> Relay_V1_Envelope.OneOf_Body {
        guard let body = try Relay_V1_Envelope(serializedBytes: bytes).body else {
            throw DatabaseError(message: "an outbound entry has no body")
        }
        return body
    }

    /// A random epoch in 1…2⁶³−1 (stored as a signed integer, never 0, which means "none").
    /// A new epoch's number: random, so that a log started again after a lost write is never
    /// taken for the one before.
    public static func freshEpoch() -> UInt64 { UInt64.random(in: 1...UInt64(Int64.max)) }
}
