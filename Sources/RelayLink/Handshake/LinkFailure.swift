public import RelayNoise
public import RelayWire

/// Why a connection was closed before or during its session. Every case is logged with
/// its description; the ones a user can act on say what to do.
public enum LinkFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer did not open with Relay's preamble.
    case notRelay
    /// The preamble was Relay's but broken.
    case malformedPreamble(String)
    /// No protocol version in common.
    case versionMismatch(local: ClosedRange<UInt8>, remote: ClosedRange<UInt8>)
    /// The responder refused: it is not pairable, or has no partner.
    case refused(Preamble.Status)
    /// This side, the responder, refused the peer's offer (and said why in its answer).
    case refusedOffer(Preamble.Status)
    /// The Noise handshake failed: a tampered message, or a peer whose static key is not
    /// the stored partner's (in a session, an unknown peer shows up exactly like this).
    case handshakeFailed(NoiseError)
    /// A frame arrived that the protocol does not allow at this point.
    case unexpectedFrame(String)
    /// A frame of an established session failed to decrypt: tampered, replayed or lost.
    case decryptionFailed
    /// A frame decrypted, but is not a valid envelope or breaks the protocol's rules.
    case protocolViolation(String)
    /// The framing broke (oversized, empty or truncated frame).
    case framing(FrameError)
    /// The peer lost its state: it lacks entries this side already deleted as
    /// acknowledged. The owner must start a new log epoch with a snapshot, then reconnect.
    case peerNeedsSnapshot(peerHas: UInt64, logStartsAfter: UInt64)
    /// Nothing was heard from the peer within the dead-link timeout.
    case peerSilent(seconds: Double)
    /// The peer closed the connection, or reported an error before closing.
    case peerClosed(String)
    /// The partner forgot this side (`relayctl unpair` there) and said so before closing
    /// (`Error{code: UNPAIRED}`, PROTOCOL.md §9.1): this side forgets it too.
    case peerUnpaired(String)
    /// Nothing we wrote was taken in for longer than the write-stall deadline: the peer does not read.
    case peerNotReading(seconds: Double)
    /// This side could not read or write its own state (`operation`, e.g. "persist the
    /// entries taken in"): the peer did nothing wrong, and nothing unstored was acknowledged.
    case localStorage(operation: String, cause: FailureCause)
    /// This side's own agent broke the session's rules (a bug here, not the peer's doing).
    case localViolation(String)
    /// The connection itself failed under this side (reset, closed channel, an I/O error), as
    /// the transport reported it; which side caused it is not known.
    case transport(FailureCause)

    /// A message for logs and, where it helps, for people.
    public var description: String {
        switch self {
        case .notRelay:
            return "the peer is not a Relay agent (no Relay preamble)"
        case .malformedPreamble(let reason):
            return "malformed preamble: \(reason)"
        case .versionMismatch(let local, let remote):
            return "no common protocol version: the peer speaks \(Self.text(remote)), this side \(Self.text(local)); "
                + "update Relay on the side with the older version"
        case .refused(.notPairable):
            return "the peer is not accepting pairing; put it in pairing mode (relayctl pair) and try again"
        case .refused(.notPaired):
            return "the peer has no partner; pair the devices with relayctl pair"
        case .refused(.unsupportedVersion):
            return "the peer refused our protocol versions; update Relay on the side with the older version"
        case .refused(.accepted):
            return "the peer refused the connection"
        case .refusedOffer(.notPairable):
            return "refused a pairing: this side is not waiting for one (it is paired, or pairing mode is off)"
        case .refusedOffer(.notPaired):
            return "refused a session: this side has no partner; pair the devices with relayctl pair"
        case .refusedOffer(let status):
            return "refused the peer's offer (\(status))"
        case .handshakeFailed(let error):
            return "handshake failed (\(error)): the peer is not the paired partner, or the messages were tampered with"
        case .unexpectedFrame(let what):
            return "unexpected frame: \(what)"
        case .decryptionFailed:
            return "a frame failed authentication (tampered, replayed or lost); closing the connection"
        case .protocolViolation(let what):
            return "protocol violation: \(what)"
        case .framing(let error):
            return "framing error: \(error)"
        case .peerNeedsSnapshot(let peerHas, let start):
            return "the peer has entries only through \(peerHas), but the log was trimmed through \(start) "
                + "(the peer lost its state); resending a full snapshot"
        case .peerSilent(let seconds):
            return "nothing heard from the peer for \(seconds) s; the link is dead"
        case .peerNotReading(let seconds):
            return "the peer took nothing we sent for \(seconds) s; the link is dead"
        case .peerClosed(let reason):
            return "the peer closed the connection: \(reason)"
        case .peerUnpaired(let reason):
            return "the peer unpaired: \(reason)"
        case .localStorage(let operation, let cause):
            return "this side could not \(operation): \(cause); check the state directory's free space and permissions"
        case .localViolation(let what):
            return "this side broke the session's rules (a bug in this agent): \(what)"
        case .transport(let cause):
            return "the connection failed: \(cause)"
        }
    }

    private static func text(_ range: ClosedRange<UInt8>) -> String {
        range.lowerBound == range.upperBound ? "version \(range.lowerBound)" : "versions \(range.lowerBound)–\(range.upperBound)"
    }
}
