/// Sizes fixed by the Noise spec and by the one cipher suite Relay uses (25519, ChaChaPoly, SHA256).
public enum NoiseConstants {
    /// The largest Noise message, handshake or transport, in bytes (spec §3).
    public static let maxMessageLength = 65_535
    /// The size of an authentication tag appended to every encrypted field.
    public static let tagLength = 16
    /// The largest transport payload: a full message less its tag.
    public static let maxPlaintextLength = maxMessageLength - tagLength

    /// DHLEN: the size of a Curve25519 public key and of a DH result.
    static let dhLength = 32
    /// HASHLEN for SHA-256.
    static let hashLength = 32
    /// The size of a ChaChaPoly key.
    static let keyLength = 32

    /// The DH, cipher and hash names as they appear in a protocol name.
    static let dhName = "25519"
    static let cipherName = "ChaChaPoly"
    static let hashName = "SHA256"
}
