public import Crypto
public import Foundation

/// The encrypted channel a completed handshake yields: one CipherState for each direction (spec §5.3, Split).
///
/// Non-copyable, because two copies would encrypt different messages under the same nonce.
/// A message that fails to decrypt leaves the session as it was, as the spec requires; over a
/// reliable, ordered link such a failure means tampering or loss, and the caller should close the link.
public struct TransportSession: ~Copyable, Sendable {
    /// This party's role in the handshake that created the session.
    public let role: NoiseRole
    /// The final handshake hash, identical on both sides; usable for channel binding.
    public let handshakeHash: Data

    private let remoteStatic: Data?
    private var sending: CipherState
    private var receiving: CipherState

    init(role: NoiseRole, handshakeHash: Data, remoteStaticKey: Data?, ciphers: consuming CipherStatePair) {
        self.role = role
        self.handshakeHash = handshakeHash
        self.remoteStatic = remoteStaticKey
        // The initiator sends with the first key Split derives and the responder with the second.
        switch role {
        case .initiator:
            sending = ciphers.initiatorToResponder
            receiving = ciphers.responderToInitiator
        case .responder:
            sending = ciphers.responderToInitiator
            receiving = ciphers.initiatorToResponder
        }
    }

    /// The peer's authenticated static key, or `nil` if the pattern has none for the peer.
    public var remoteStaticKey: Curve25519.KeyAgreement.PublicKey? {
        remoteStatic.flatMap { try? X25519KeyPair.publicKey(from: $0) }
    }

    /// How many messages have been encrypted so far; lets the caller rekey or renegotiate on its own schedule.
    public var sendingNonce: UInt64 { sending.nonce }

    /// How many messages have been decrypted so far.
    public var receivingNonce: UInt64 { receiving.nonce }

    /// Encrypts the next outgoing transport message.
    public mutating func encrypt(_ plaintext: Data) throws(NoiseError) -> Data {
        guard plaintext.count <= NoiseConstants.maxPlaintextLength else {
            throw .messageTooLong(
                length: plaintext.count + NoiseConstants.tagLength, maximum: NoiseConstants.maxMessageLength)
        }
        return try sending.encrypt(plaintext, associatedData: Data())
    }

    /// Decrypts the next incoming transport message. A tampered, replayed or reordered message
    /// throws `authenticationFailed`: each message is bound to the nonce it was sent under.
    public mutating func decrypt(_ message: Data) throws(NoiseError) -> Data {
        guard message.count <= NoiseConstants.maxMessageLength else {
            throw .messageTooLong(length: message.count, maximum: NoiseConstants.maxMessageLength)
        }
        return try receiving.decrypt(message, associatedData: Data())
    }

    /// Replaces the sending key with a one-way function of itself (spec §11.3), so a later key
    /// compromise does not expose earlier messages. The peer must call `rekeyReceiving()` at the same point.
    public mutating func rekeySending() throws(NoiseError) {
        try sending.rekey()
    }

    /// Replaces the receiving key, matching the peer's `rekeySending()`.
    public mutating func rekeyReceiving() throws(NoiseError) {
        try receiving.rekey()
    }
}
