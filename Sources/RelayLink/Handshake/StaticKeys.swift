import Crypto
public import Foundation

/// A device's long-term Curve25519 key pair, held as raw bytes so that it is `Sendable`.
public struct StaticKeyPair: Sendable, Hashable {
    /// The 32-byte private key. Stored only in files of mode 0600.
    public let privateKey: Data
    /// The 32-byte public key.
    public let publicKey: Data

    /// A fresh key pair from the system's secure random source.
    public static func generate() -> StaticKeyPair {
        let key = Curve25519.KeyAgreement.PrivateKey()
        return StaticKeyPair(privateKey: key.rawRepresentation, publicKey: key.publicKey.rawRepresentation)
    }

    /// A key pair from a stored private key.
    public init(privateKey: Data) throws(LinkKeyError) {
        guard let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else {
            throw .invalidKey("the private key is not 32 bytes of Curve25519 key material")
        }
        self.init(privateKey: key.rawRepresentation, publicKey: key.publicKey.rawRepresentation)
    }

    private init(privateKey: Data, publicKey: Data) {
        self.privateKey = privateKey
        self.publicKey = publicKey
    }

    var cryptoKey: Curve25519.KeyAgreement.PrivateKey {
        get throws(LinkKeyError) {
            guard let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else {
                throw .invalidKey("the private key is not 32 bytes of Curve25519 key material")
            }
            return key
        }
    }
}

/// Helpers for a peer's public key.
public enum PublicKeyText {
    /// A short fingerprint for people: the first 8 bytes of SHA-256 of the key, in hex pairs.
    public static func fingerprint(_ publicKey: Data) -> String {
        let digest = Array(SHA256.hash(data: publicKey)).prefix(8)
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    static func cryptoKey(_ publicKey: Data) throws(LinkKeyError) -> Curve25519.KeyAgreement.PublicKey {
        guard let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey) else {
            throw .invalidKey("the peer's public key is not 32 bytes of Curve25519 key material")
        }
        return key
    }
}

/// A stored key that cannot be used.
public enum LinkKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a Curve25519 key.
    case invalidKey(String)

    /// A message for people.
    public var description: String {
        switch self {
        case .invalidKey(let reason): "invalid key: \(reason); unpair and pair again"
        }
    }
}
