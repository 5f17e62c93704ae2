import Crypto
import Foundation

/// The chaining key, the handshake hash and the handshake's CipherState (spec §5.2).
///
/// Non-copyable for the same reason as `CipherState`, which it owns.
struct SymmetricState: ~Copyable, Sendable {
    private var cipher = CipherState()
    /// `ck`.
    private var chainingKey: Data
    /// `h`: a hash of everything sent and received so far, bound into every encryption as associated data.
    private(set) var handshakeHash: Data

    /// InitializeSymmetric(protocol_name).
    init(protocolName: String) {
        let name = Data(protocolName.utf8)
        if name.count <= NoiseConstants.hashLength {
            handshakeHash = name + Data(count: NoiseConstants.hashLength - name.count)
        } else {
            handshakeHash = Data(SHA256.hash(data: name))
        }
        chainingKey = handshakeHash
    }

    /// Whether a key has been mixed in, which decides whether `s` and payloads are encrypted.
    var hasKey: Bool { cipher.hasKey }

    /// MixKey(input_key_material).
    mutating func mixKey(_ inputKeyMaterial: some ContiguousBytes) {
        let (chainingKey, key) = NoiseHKDF.derive2(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial)
        self.chainingKey = chainingKey
        cipher = CipherState(key: key)
    }

    /// MixHash(data).
    mutating func mixHash(_ data: Data) {
        var hasher = SHA256()
        hasher.update(data: handshakeHash)
        hasher.update(data: data)
        handshakeHash = Data(hasher.finalize())
    }

    /// MixKeyAndHash(input_key_material). Only `psk` tokens use it, and Relay supports none, but it
    /// belongs to the spec's SymmetricState and is tested so that adding PSK support later starts from working code.
    mutating func mixKeyAndHash(_ inputKeyMaterial: some ContiguousBytes) {
        let (chainingKey, hashInput, key) = NoiseHKDF.derive3(
            chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial)
        self.chainingKey = chainingKey
        mixHash(hashInput)
        cipher = CipherState(key: key)
    }

    /// EncryptAndHash(plaintext).
    mutating func encryptAndHash(_ plaintext: Data) throws(NoiseError) -> Data {
        let ciphertext = try cipher.encrypt(plaintext, associatedData: handshakeHash)
        mixHash(ciphertext)
        return ciphertext
    }

    /// DecryptAndHash(ciphertext).
    mutating func decryptAndHash(_ ciphertext: Data) throws(NoiseError) -> Data {
        let plaintext = try cipher.decrypt(ciphertext, associatedData: handshakeHash)
        mixHash(ciphertext)
        return plaintext
    }

    /// Split(): the initiator-to-responder and responder-to-initiator CipherStates.
    /// Consuming, because the chaining key must not outlive the handshake.
    consuming func split() -> CipherStatePair {
        let (initiatorKey, responderKey) = NoiseHKDF.derive2(chainingKey: chainingKey, inputKeyMaterial: Data())
        return CipherStatePair(
            initiatorToResponder: CipherState(key: initiatorKey),
            responderToInitiator: CipherState(key: responderKey))
    }
}

/// The two CipherStates Split returns. A struct because tuples cannot hold non-copyable values.
struct CipherStatePair: ~Copyable, Sendable {
    /// Encrypts what the initiator sends.
    var initiatorToResponder: CipherState
    /// Encrypts what the responder sends.
    var responderToInitiator: CipherState
}
