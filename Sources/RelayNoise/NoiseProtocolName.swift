/// A full Noise protocol name such as `Noise_XX_25519_ChaChaPoly_SHA256` (spec §8).
///
/// Relay supports exactly one cipher suite, so the name carries only the handshake pattern;
/// parsing rejects any other DH, cipher or hash function, and any pattern modifier.
public struct NoiseProtocolName: Sendable, Hashable, CustomStringConvertible {
    /// The handshake pattern the name selects.
    public let pattern: NoiseHandshakePattern

    /// The protocol name for a supported pattern with Relay's cipher suite.
    public init(pattern: NoiseHandshakePattern) {
        self.pattern = pattern
    }

    /// Parses a protocol name, throwing an error that names the first unsupported part.
    public init(_ name: String) throws(NoiseError) {
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "Noise" else {
            throw .invalidProtocolName(name)
        }
        let patternPart = parts[1]
        // The base name is capitals and digits (`XX`, or deferred ones like `X1K1`); modifiers follow
        // in lower case (`XXpsk3`, `XXfallback+psk0`), so they can be named in the error.
        let baseName = patternPart.prefix { $0.isASCII && ($0.isUppercase || $0.isNumber) }
        let modifiers = patternPart.dropFirst(baseName.count)
        guard !baseName.isEmpty else {
            throw .invalidProtocolName(name)
        }
        guard modifiers.isEmpty else {
            throw .unsupportedPatternModifier(String(modifiers))
        }
        guard let pattern = NoiseHandshakePattern.named(String(baseName)) else {
            throw .unsupportedHandshakePattern(String(baseName))
        }
        guard parts[2] == NoiseConstants.dhName else {
            throw .unsupportedDHFunction(String(parts[2]))
        }
        guard parts[3] == NoiseConstants.cipherName else {
            throw .unsupportedCipherFunction(String(parts[3]))
        }
        guard parts[4] == NoiseConstants.hashName else {
            throw .unsupportedHashFunction(String(parts[4]))
        }
        self.pattern = pattern
    }

    /// The name exactly as it is hashed into the handshake.
    public var description: String {
        "Noise_\(pattern.name)_\(NoiseConstants.dhName)_\(NoiseConstants.cipherName)_\(NoiseConstants.hashName)"
    }
}
