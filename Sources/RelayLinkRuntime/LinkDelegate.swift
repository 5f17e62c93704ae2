public import Foundation
public import RelayLink
public import RelayWire

/// What a link connection asks of its owner: the durable logs and what to do with what
/// arrives. A method that persists must have persisted when it returns, because the
/// driver may acknowledge or send right after it.
public protocol LinkDelegate: Sendable {
    /// The logs as stored: unacknowledged outbound entries, cursors and epochs.
    func loadLogs() async throws -> LinkSession.Logs
    /// Applies an entry of the peer's log and stores the new cursor in the same transaction.
    func apply(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) async throws
    /// Applies consecutive entries of the peer's log, in order, with the cursor; they are
    /// stored when this returns. An owner may store a batch in one transaction (one sync for a
    /// catch-up of hundreds); by default each goes through `apply(seq:body:)`.
    func apply(_ entries: [InboundEntry]) async throws
    /// The peer has everything through `seq`: stored outbound entries up to it may go.
    func acknowledged(through seq: UInt64) async throws
    /// The peer started a new log: store its epoch; its entries start again from 1.
    func peerLogReset(epoch: UInt64) async throws
    /// A message outside the log (attachment data, pairing).
    func received(_ body: Relay_V1_Envelope.OneOf_Body) async
    /// The session is up; the peer said hello. `link` says who the peer is and how it was
    /// authenticated (pairing needs the handshake hash).
    func connected(peer: Relay_V1_Hello, link: LinkIdentity) async
    /// A heartbeat came back: the link's round-trip time now.
    func measured(roundTrip: Duration) async
    /// A heartbeat brought the peer's wall clock (UTC) as it sent it.
    func peerTime(_ time: Date) async
}

extension LinkDelegate {
    /// Owners that do not show the round-trip time ignore it.
    public func measured(roundTrip: Duration) async {}

    /// Owners that do not follow the peer's clock ignore it.
    public func peerTime(_ time: Date) async {}

    /// One entry at a time.
    public func apply(_ entries: [InboundEntry]) async throws {
        for entry in entries { try await apply(seq: entry.seq, body: entry.body) }
    }
}

/// An entry of the peer's log, as the session delivered it.
public struct InboundEntry: Sendable {
    /// Its position in the peer's log.
    public var seq: UInt64
    /// What it says.
    public var body: Relay_V1_Envelope.OneOf_Body

    /// Creates an entry.
    public init(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) {
        self.seq = seq
        self.body = body
    }
}

/// Who is on the other end of an established link.
public struct LinkIdentity: Sendable, Hashable {
    /// Pairing (Noise XX) or a session with the stored partner (Noise KK).
    public var mode: Preamble.Mode
    /// The peer's authenticated static public key.
    public var remoteStaticKey: Data
    /// The handshake hash, which binds the pairing code to this handshake.
    public var handshakeHash: Data

    /// Creates an identity.
    public init(mode: Preamble.Mode, remoteStaticKey: Data, handshakeHash: Data) {
        self.mode = mode
        self.remoteStaticKey = remoteStaticKey
        self.handshakeHash = handshakeHash
    }
}
