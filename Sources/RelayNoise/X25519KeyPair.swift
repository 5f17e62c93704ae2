import Crypto
import Foundation

/// A Curve25519 key pair and the spec's DH function (§4.1, §12.1).
///
/// Keys are held as raw bytes because swift-crypto 3.12's key types are not `Sendable`,
/// and the handshake states that hold them must be.
struct X25519KeyPair: Sendable {
    /// The 32-byte private scalar.
    let privateKey: Data
    /// The 32-byte public key, as sent on the wire.
    let publicKey: Data

    init(_ key: Curve25519.KeyAgreement.PrivateKey) {
        privateKey = key.rawRepresentation
        publicKey = key.publicKey.rawRepresentation
    }

    /// GENERATE_KEYPAIR(), from the system's secure random source.
    static func generate() -> X25519KeyPair {
        X25519KeyPair(Curve25519.KeyAgreement.PrivateKey())
    }

    /// DH(key_pair, public_key). An invalid peer key yields an all-zero result, which swift-crypto
    /// returns rather than rejects; the spec (§12.1) specifies exactly that and discourages rejecting it.
    func sharedSecret(with remotePublicKey: Data) throws(NoiseError) -> SharedSecret {
        let local: Curve25519.KeyAgreement.PrivateKey
        do {
            local = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey)
        } catch {
            throw .cryptoFailure
        }
        let remote = try Self.publicKey(from: remotePublicKey)
        do {
            return try local.sharedSecretFromKeyAgreement(with: remote)
        } catch {
            throw .keyAgreementFailed
        }
    }

    /// Parses received bytes as a public key, so a malformed key is reported before it is hashed or used.
    static func publicKey(from bytes: Data) throws(NoiseError) -> Curve25519.KeyAgreement.PublicKey {
        do {
            return try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes)
        } catch {
            throw .invalidPublicKey
        }
    }
}
