/// A key that a handshake needs, named for the error that reports it missing or unwanted.
public enum NoiseKeyKind: String, Sendable, Hashable, CustomStringConvertible {
    /// This party's long-term static key pair.
    case localStatic = "local static key"
    /// This party's per-handshake ephemeral key pair.
    case localEphemeral = "local ephemeral key"
    /// The peer's static public key.
    case remoteStatic = "remote static key"
    /// The peer's ephemeral public key.
    case remoteEphemeral = "remote ephemeral key"

    /// The key's name as used in error messages.
    public var description: String { rawValue }
}

/// Every failure the Noise layer reports. Received bytes can only ever cause one of these, never a trap.
public enum NoiseError: Error, Sendable, Hashable {
    /// The string is not of the form `Noise_<pattern>_<dh>_<cipher>_<hash>`.
    case invalidProtocolName(String)
    /// The handshake pattern is not one of the supported fundamental interactive patterns.
    case unsupportedHandshakePattern(String)
    /// The pattern carries modifiers such as `psk0` or `fallback`, which are not supported.
    case unsupportedPatternModifier(String)
    /// Only the `25519` DH function is supported.
    case unsupportedDHFunction(String)
    /// Only the `ChaChaPoly` cipher function is supported.
    case unsupportedCipherFunction(String)
    /// Only the `SHA256` hash function is supported.
    case unsupportedHashFunction(String)
    /// The pattern needs a key that was not supplied.
    case missingKey(NoiseKeyKind)
    /// A key was supplied that the pattern never uses; accepting it silently would suggest an authentication that does not happen.
    case unexpectedKey(NoiseKeyKind)
    /// Bytes that should hold a Curve25519 public key do not.
    case invalidPublicKey
    /// The Diffie-Hellman computation failed.
    case keyAgreementFailed
    /// A message, or the message that would be produced, exceeds the 65535-byte Noise limit.
    case messageTooLong(length: Int, maximum: Int)
    /// A message is shorter than its pattern or its authentication tag requires.
    case messageTooShort(length: Int, minimum: Int)
    /// Decryption failed: the ciphertext was tampered with, replayed, reordered or encrypted under another key.
    case authenticationFailed
    /// The 64-bit nonce has reached its reserved final value; the key must not be used any more.
    case nonceExhausted
    /// `writeMessage` was called while the peer is due to send the next handshake message.
    case writeOutOfTurn
    /// `readMessage` was called while this party is due to send the next handshake message.
    case readOutOfTurn
    /// A handshake message was written or read after the handshake finished.
    case handshakeAlreadyComplete
    /// The transport keys were requested before the last handshake message.
    case handshakeIncomplete
    /// An earlier error aborted this handshake; its state is no longer trustworthy, so a new handshake is required.
    case handshakeFailed
    /// The cryptographic library failed where it is documented not to; reported rather than trapped.
    case cryptoFailure
}

extension NoiseError: CustomStringConvertible {
    /// A sentence describing the failure, safe to log: it never contains key material.
    public var description: String {
        switch self {
        case .invalidProtocolName(let name):
            "'\(name)' is not a Noise protocol name of the form Noise_<pattern>_<dh>_<cipher>_<hash>"
        case .unsupportedHandshakePattern(let pattern):
            "handshake pattern '\(pattern)' is not supported; use one of the twelve fundamental interactive patterns"
        case .unsupportedPatternModifier(let modifier):
            "pattern modifier '\(modifier)' is not supported"
        case .unsupportedDHFunction(let name):
            "DH function '\(name)' is not supported; only 25519 is"
        case .unsupportedCipherFunction(let name):
            "cipher function '\(name)' is not supported; only ChaChaPoly is"
        case .unsupportedHashFunction(let name):
            "hash function '\(name)' is not supported; only SHA256 is"
        case .missingKey(let kind):
            "the handshake pattern needs the \(kind), which was not supplied"
        case .unexpectedKey(let kind):
            "the \(kind) was supplied but the handshake pattern does not use it"
        case .invalidPublicKey:
            "the peer sent bytes that are not a Curve25519 public key"
        case .keyAgreementFailed:
            "the Curve25519 key agreement failed"
        case .messageTooLong(let length, let maximum):
            "a Noise message of \(length) bytes exceeds the maximum of \(maximum) bytes"
        case .messageTooShort(let length, let minimum):
            "a Noise message of \(length) bytes is shorter than the \(minimum) bytes required"
        case .authenticationFailed:
            "the message failed authentication: it was tampered with, replayed, reordered or encrypted under another key"
        case .nonceExhausted:
            "the cipher's nonce is exhausted; the session must be replaced"
        case .writeOutOfTurn:
            "cannot write a handshake message: it is the peer's turn to send"
        case .readOutOfTurn:
            "cannot read a handshake message: it is this party's turn to send"
        case .handshakeAlreadyComplete:
            "the handshake is already complete; use the transport session"
        case .handshakeIncomplete:
            "the handshake has not finished; transport keys are not available yet"
        case .handshakeFailed:
            "the handshake was aborted by an earlier error; start a new handshake"
        case .cryptoFailure:
            "the cryptographic library failed unexpectedly"
        }
    }
}
