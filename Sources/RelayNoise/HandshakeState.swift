public import Crypto
public import Foundation

/// One party's side of a Noise handshake (spec §5.3), for any supported pattern.
///
/// Call `writeMessage` and `readMessage` as `status` directs until it is `.complete`, then `finish()`
/// to obtain the `TransportSession`. Any error while processing a message aborts the handshake
/// (`status` becomes `.failed`), because the state has by then absorbed input that cannot be trusted.
/// Calls made in the wrong state, and a payload too large to send, leave the state untouched.
///
/// The handshake proves that the peer holds the private key for `remoteStaticKey`; whether that key
/// belongs to a trusted device is for the caller to decide.
public struct HandshakeState: ~Copyable, Sendable {
    /// What the handshake expects next.
    public enum Status: Sendable, Hashable {
        /// This party sends the next handshake message.
        case writeMessage
        /// The peer sends the next handshake message.
        case readMessage
        /// All messages have been exchanged; call `finish()`.
        case complete
        /// An error aborted the handshake; start a new one.
        case failed
    }

    /// The pattern being run.
    public let pattern: NoiseHandshakePattern
    /// Whether this party initiates or responds.
    public let role: NoiseRole

    private var symmetric: SymmetricState
    private let localStatic: X25519KeyPair?
    private var localEphemeral: X25519KeyPair?
    private var remoteStatic: Data?
    private var remoteEphemeral: Data?
    private var nextMessageIndex = 0
    private var hasFailed = false

    /// Initialize(handshake_pattern, initiator, prologue, s, e, rs, re) of the spec; `re` is omitted
    /// because no supported pattern shares an ephemeral key in advance.
    ///
    /// - Parameters:
    ///   - prologue: Data both parties must agree on, such as the negotiated protocol version; a mismatch fails the handshake.
    ///   - localStaticKey: This party's static key; required exactly when the pattern uses it.
    ///   - localEphemeralKey: Only for reproducing test vectors. Leave `nil` so that a fresh key is generated,
    ///     which is what makes the session forward-secret.
    ///   - remoteStaticKey: The peer's static key; required exactly when the peer's letter in the pattern
    ///     name is `K` (the initiator of `NK`, `KK`, `XK`, `IK`; the responder of `KN`, `KK`, `KX`).
    public init(
        pattern: NoiseHandshakePattern,
        role: NoiseRole,
        prologue: Data = Data(),
        localStaticKey: Curve25519.KeyAgreement.PrivateKey? = nil,
        localEphemeralKey: Curve25519.KeyAgreement.PrivateKey? = nil,
        remoteStaticKey: Curve25519.KeyAgreement.PublicKey? = nil
    ) throws(NoiseError) {
        let localStatic = localStaticKey.map(X25519KeyPair.init)
        let remoteStatic = remoteStaticKey?.rawRepresentation
        // Refusing unused keys catches a caller who believes a pattern authenticates a key it ignores.
        if localStatic != nil, !pattern.usesStaticKey(of: role) {
            throw .unexpectedKey(.localStatic)
        }
        if localStatic == nil, pattern.usesStaticKey(of: role) {
            throw .missingKey(.localStatic)
        }
        if remoteStatic != nil, !pattern.preMessage(of: role.peer).contains(.s) {
            throw .unexpectedKey(.remoteStatic)
        }

        var symmetric = SymmetricState(protocolName: NoiseProtocolName(pattern: pattern).description)
        symmetric.mixHash(prologue)
        // `allCases` lists the initiator first, the order in which the spec hashes the pre-messages.
        for owner in NoiseRole.allCases {
            for token in pattern.preMessage(of: owner) {
                // Pre-shared ephemerals occur only in fallback patterns, which are not supported.
                guard token == .s else { throw .unsupportedHandshakePattern(pattern.name) }
                let isLocal = owner == role
                guard let key = isLocal ? localStatic?.publicKey : remoteStatic else {
                    throw .missingKey(isLocal ? .localStatic : .remoteStatic)
                }
                symmetric.mixHash(key)
            }
        }

        self.pattern = pattern
        self.role = role
        self.symmetric = symmetric
        self.localStatic = localStatic
        self.localEphemeral = localEphemeralKey.map(X25519KeyPair.init)
        self.remoteStatic = remoteStatic
    }

    /// Creates the handshake for a protocol name such as `Noise_XX_25519_ChaChaPoly_SHA256`.
    public init(
        protocolName: String,
        role: NoiseRole,
        prologue: Data = Data(),
        localStaticKey: Curve25519.KeyAgreement.PrivateKey? = nil,
        localEphemeralKey: Curve25519.KeyAgreement.PrivateKey? = nil,
        remoteStaticKey: Curve25519.KeyAgreement.PublicKey? = nil
    ) throws(NoiseError) {
        try self.init(
            pattern: try NoiseProtocolName(protocolName).pattern, role: role, prologue: prologue,
            localStaticKey: localStaticKey, localEphemeralKey: localEphemeralKey, remoteStaticKey: remoteStaticKey)
    }

    /// What the handshake expects next.
    public var status: Status {
        if hasFailed { return .failed }
        guard nextMessageIndex < pattern.messages.count else { return .complete }
        return pattern.messages[nextMessageIndex].sender == role ? .writeMessage : .readMessage
    }

    /// Whether every handshake message has been exchanged.
    public var isComplete: Bool { status == .complete }

    /// The handshake hash `h`. Once the handshake is complete it identifies the session uniquely,
    /// which makes it suitable for channel binding; before then it is a running value.
    public var handshakeHash: Data { symmetric.handshakeHash }

    /// The peer's static key: pre-shared, or received in a message that has been read successfully.
    /// `nil` once the handshake has failed, since a key read from a message that then failed
    /// authentication was never proven to belong to the peer.
    public var remoteStaticKey: Curve25519.KeyAgreement.PublicKey? {
        guard !hasFailed else { return nil }
        return remoteStatic.flatMap { try? X25519KeyPair.publicKey(from: $0) }
    }

    /// WriteMessage(payload): the next handshake message, carrying `payload` (encrypted once a key is mixed in).
    public mutating func writeMessage(_ payload: Data = Data()) throws(NoiseError) -> Data {
        let message = try nextMessage(writing: true)
        let length = Self.minimumLength(of: message.tokens, hasKey: symmetric.hasKey) + payload.count
        guard length <= NoiseConstants.maxMessageLength else {
            throw .messageTooLong(length: length, maximum: NoiseConstants.maxMessageLength)
        }
        do throws(NoiseError) {
            var buffer = Data(capacity: length)
            for token in message.tokens {
                try write(token, into: &buffer)
            }
            buffer += try symmetric.encryptAndHash(payload)
            nextMessageIndex += 1
            return buffer
        } catch {
            hasFailed = true
            throw error
        }
    }

    /// ReadMessage(message): processes the peer's next handshake message and returns its payload.
    public mutating func readMessage(_ message: Data) throws(NoiseError) -> Data {
        let expected = try nextMessage(writing: false)
        do throws(NoiseError) {
            guard message.count <= NoiseConstants.maxMessageLength else {
                throw .messageTooLong(length: message.count, maximum: NoiseConstants.maxMessageLength)
            }
            let minimum = Self.minimumLength(of: expected.tokens, hasKey: symmetric.hasKey)
            guard message.count >= minimum else {
                throw .messageTooShort(length: message.count, minimum: minimum)
            }
            var reader = ByteReader(message)
            for token in expected.tokens {
                try read(token, from: &reader)
            }
            let payload = try symmetric.decryptAndHash(reader.readRest())
            nextMessageIndex += 1
            return payload
        } catch {
            hasFailed = true
            throw error
        }
    }

    /// Ends the handshake and returns the transport session built from Split().
    /// Consuming, so that no handshake state, and in particular no ephemeral key, outlives the handshake.
    public consuming func finish() throws(NoiseError) -> TransportSession {
        guard !hasFailed else { throw .handshakeFailed }
        guard nextMessageIndex == pattern.messages.count else { throw .handshakeIncomplete }
        let handshakeHash = symmetric.handshakeHash
        return TransportSession(
            role: role, handshakeHash: handshakeHash, remoteStaticKey: remoteStatic,
            ciphers: symmetric.split())
    }

    /// The next message's pattern, if this party may write (or read) it now.
    private func nextMessage(writing: Bool) throws(NoiseError) -> NoiseMessagePattern {
        guard !hasFailed else { throw .handshakeFailed }
        guard nextMessageIndex < pattern.messages.count else { throw .handshakeAlreadyComplete }
        let message = pattern.messages[nextMessageIndex]
        guard (message.sender == role) == writing else {
            throw writing ? .writeOutOfTurn : .readOutOfTurn
        }
        return message
    }

    /// The size of a message with these tokens and an empty payload. Computed up front so that an
    /// oversized payload is refused before any state changes, and a short message before any is read.
    private static func minimumLength(of tokens: [NoiseToken], hasKey: Bool) -> Int {
        var hasKey = hasKey
        var length = 0
        for token in tokens {
            switch token {
            case .e: length += NoiseConstants.dhLength
            case .s: length += NoiseConstants.dhLength + (hasKey ? NoiseConstants.tagLength : 0)
            case .ee, .es, .se, .ss: hasKey = true
            }
        }
        return length + (hasKey ? NoiseConstants.tagLength : 0)
    }

    private mutating func write(_ token: NoiseToken, into buffer: inout Data) throws(NoiseError) {
        switch token {
        case .e:
            let ephemeral = localEphemeral ?? X25519KeyPair.generate()
            localEphemeral = ephemeral
            buffer += ephemeral.publicKey
            symmetric.mixHash(ephemeral.publicKey)
        case .s:
            guard let localStatic else { throw .missingKey(.localStatic) }
            buffer += try symmetric.encryptAndHash(localStatic.publicKey)
        case .ee, .es, .se, .ss:
            try mixKeyAgreement(token)
        }
    }

    private mutating func read(_ token: NoiseToken, from reader: inout ByteReader) throws(NoiseError) {
        switch token {
        case .e:
            let key = try reader.read(NoiseConstants.dhLength)
            remoteEphemeral = key
            symmetric.mixHash(key)
        case .s:
            let length = NoiseConstants.dhLength + (symmetric.hasKey ? NoiseConstants.tagLength : 0)
            remoteStatic = try symmetric.decryptAndHash(try reader.read(length))
        case .ee, .es, .se, .ss:
            try mixKeyAgreement(token)
        }
    }

    /// MixKey(DH(...)) for a DH token, choosing this party's and the peer's key by role.
    private mutating func mixKeyAgreement(_ token: NoiseToken) throws(NoiseError) {
        // The token's letters name the initiator's key, then the responder's.
        let initiatorUsesEphemeral = token == .ee || token == .es
        let responderUsesEphemeral = token == .ee || token == .se
        let localUsesEphemeral = role == .initiator ? initiatorUsesEphemeral : responderUsesEphemeral
        let remoteUsesEphemeral = role == .initiator ? responderUsesEphemeral : initiatorUsesEphemeral

        guard let local = localUsesEphemeral ? localEphemeral : localStatic else {
            throw .missingKey(localUsesEphemeral ? .localEphemeral : .localStatic)
        }
        guard let remote = remoteUsesEphemeral ? remoteEphemeral : remoteStatic else {
            throw .missingKey(remoteUsesEphemeral ? .remoteEphemeral : .remoteStatic)
        }
        symmetric.mixKey(try local.sharedSecret(with: remote))
    }
}
