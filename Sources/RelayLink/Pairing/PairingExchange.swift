import Crypto
public import Foundation
public import RelayWire

/// The numeric-comparison step of pairing, run inside the `Noise_XX` session.
///
/// A six-digit code from the handshake hash alone could be matched by an active
/// attacker who tries a million ephemeral keys offline. So both sides add a fresh nonce
/// with commit-then-reveal (as Bluetooth's numeric comparison does): the wearable
/// commits to its nonce before it sees the phone's, and the phone sends its nonce before
/// it sees the wearable's. A man in the middle must then fix both nonces before learning
/// the code, and the two codes he produces match by chance only: one in a million.
///
/// code = SHA-256("Relay pairing code" ‖ h ‖ Nphone ‖ Nwearable), first 8 bytes as a
/// big-endian integer, modulo 1,000,000, as six digits.
public struct PairingExchange: Sendable {
    /// What the caller must do next.
    public enum Step: Sendable, Hashable {
        /// Send this pairing message to the peer.
        case send(Relay_V1_Pairing)
        /// Show the code and ask the user to confirm it matches the peer's.
        case showCode(String)
        /// Both users confirmed: store the peer's key; pairing is done.
        case paired
        /// Pairing failed; close the connection.
        case failed(PairingFailure)
    }

    /// Which side of the exchange this is.
    public enum Side: Sendable, Hashable {
        /// The phone: sends its nonce after the commitment arrives.
        case initiator
        /// The wearable: commits first, reveals last.
        case responder
    }

    private let side: Side
    private let handshakeHash: Data
    private let localNonce: Data
    private var commitment: Data?
    private var remoteNonce: Data?
    private var code: String?
    private var localDecision: Bool?
    private var remoteDecision: Bool?
    private var finished = false

    /// Creates the exchange for a completed `Noise_XX` handshake. `nonce` must be 32 fresh
    /// random bytes; tests pass fixed ones.
    public init(side: Side, handshakeHash: Data, nonce: Data = PairingExchange.freshNonce()) {
        self.side = side
        self.handshakeHash = handshakeHash
        localNonce = nonce
    }

    /// 32 bytes from the system's secure random source.
    public static func freshNonce() -> Data {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// The responder's first step: its commitment. The initiator has none.
    public mutating func start() -> [Step] {
        guard side == .responder else { return [] }
        return [.send(.with { $0.commitment = Self.commit(handshakeHash, localNonce) })]
    }

    /// Handles a pairing message from the peer.
    public mutating func receive(_ message: Relay_V1_Pairing) -> [Step] {
        guard !finished else { return [] }
        switch (side, message.step) {
        case (.initiator, .commitment(let value)?) where commitment == nil:
            commitment = value
            return [.send(.with { $0.initiatorNonce = localNonce })]
        case (.responder, .initiatorNonce(let nonce)?) where remoteNonce == nil:
            guard nonce.count == 32 else { return fail(.malformed("the phone's nonce is not 32 bytes")) }
            remoteNonce = nonce
            let shown = Self.code(handshakeHash, initiatorNonce: nonce, responderNonce: localNonce)
            code = shown
            return [.send(.with { $0.responderNonce = localNonce }), .showCode(shown)]
        case (.initiator, .responderNonce(let nonce)?) where commitment != nil && remoteNonce == nil:
            guard let commitment, Self.commit(handshakeHash, nonce) == commitment else {
                return fail(.commitmentMismatch)
            }
            remoteNonce = nonce
            let shown = Self.code(handshakeHash, initiatorNonce: localNonce, responderNonce: nonce)
            code = shown
            return [.showCode(shown)]
        case (_, .confirmed(let accepted)?) where remoteDecision == nil:
            remoteDecision = accepted
            guard accepted else { return fail(.rejectedByPeer) }
            return completeIfDecided()
        default:
            return fail(.malformed("a pairing message out of order"))
        }
    }

    /// The local user's answer to "Do the codes match?".
    public mutating func decide(_ accepted: Bool) -> [Step] {
        guard !finished, code != nil, localDecision == nil else { return [] }
        localDecision = accepted
        let send = Step.send(.with { $0.confirmed = accepted })
        guard accepted else { return [send] + fail(.rejectedLocally) }
        return [send] + completeIfDecided()
    }

    /// The code both sides show, once known.
    public var shownCode: String? { code }

    private mutating func completeIfDecided() -> [Step] {
        guard localDecision == true, remoteDecision == true else { return [] }
        finished = true
        return [.paired]
    }

    private mutating func fail(_ failure: PairingFailure) -> [Step] {
        finished = true
        return [.failed(failure)]
    }

    static func commit(_ hash: Data, _ nonce: Data) -> Data {
        Data(SHA256.hash(data: Data("Relay pairing commitment".utf8) + hash + nonce))
    }

    static func code(_ hash: Data, initiatorNonce: Data, responderNonce: Data) -> String {
        let digest = Array(SHA256.hash(data: Data("Relay pairing code".utf8) + hash + initiatorNonce + responderNonce))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let digits = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}

/// Why pairing did not complete.
public enum PairingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The wearable's revealed nonce does not match its commitment: someone is in the middle.
    case commitmentMismatch
    /// The user on this side said the codes differ.
    case rejectedLocally
    /// The user on the other side said the codes differ.
    case rejectedByPeer
    /// A message broke the exchange's order or format.
    case malformed(String)
    /// Nobody finished the pairing within the time allowed (seconds).
    case timedOut(seconds: Int64)

    /// A message for people.
    public var description: String {
        switch self {
        case .commitmentMismatch:
            "the wearable's pairing commitment did not match: another device may be interfering; pairing stopped"
        case .rejectedLocally:
            "you said the codes differ; pairing stopped and nothing was stored"
        case .rejectedByPeer:
            "the other device said the codes differ; pairing stopped and nothing was stored"
        case .malformed(let reason):
            "pairing failed: \(reason)"
        case .timedOut(let seconds):
            "the pairing was not confirmed on both devices within \(seconds) s; pairing stopped and nothing was stored"
        }
    }
}
