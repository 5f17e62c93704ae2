import Crypto
import Foundation

/// A key and a counter nonce for ChaChaPoly (spec §5.1).
///
/// Non-copyable on purpose: a copy would share the key but count nonces separately,
/// and encrypting twice under one nonce breaks ChaChaPoly.
struct CipherState: ~Copyable, Sendable {
    /// `k`; `nil` is the spec's "empty" key, under which encryption is the identity.
    private var key: Data?
    /// `n`, the nonce for the next encryption or decryption.
    private(set) var nonce: UInt64 = 0

    /// A CipherState with an empty key, as InitializeSymmetric creates.
    init() {}

    /// InitializeKey(k). `key` must be 32 bytes; all callers pass HKDF outputs of exactly that size.
    init(key: Data) {
        self.key = key
    }

    /// HasKey().
    var hasKey: Bool { key != nil }

    /// SetNonce(n). Internal: only the tests move the nonce, to reach its reserved final value.
    mutating func setNonce(_ nonce: UInt64) {
        self.nonce = nonce
    }

    /// EncryptWithAd(ad, plaintext): ciphertext followed by the 16-byte tag, or `plaintext` unchanged when there is no key.
    mutating func encrypt(_ plaintext: Data, associatedData: Data) throws(NoiseError) -> Data {
        guard let key else { return plaintext }
        // 2^64-1 is reserved for Rekey, so reaching it means the key is used up rather than wrapping round.
        guard nonce < .max else { throw .nonceExhausted }
        let ciphertext = try Self.seal(plaintext, key: key, nonce: nonce, associatedData: associatedData)
        nonce += 1
        return ciphertext
    }

    /// DecryptWithAd(ad, ciphertext). On failure the nonce does not advance, as the spec requires,
    /// so a forged message cannot desynchronise the two parties.
    mutating func decrypt(_ ciphertext: Data, associatedData: Data) throws(NoiseError) -> Data {
        guard let key else { return ciphertext }
        guard nonce < .max else { throw .nonceExhausted }
        guard ciphertext.count >= NoiseConstants.tagLength else {
            throw .messageTooShort(length: ciphertext.count, minimum: NoiseConstants.tagLength)
        }
        let plaintext: Data
        do {
            // The box is the nonce, then ciphertext and tag as they came: built in one buffer,
            // where giving the three parts apart would join them in two more copies.
            var combined = Data(capacity: Self.nonceLength + ciphertext.count)
            Self.withNonceBytes(nonce) { combined.append(contentsOf: $0) }
            combined.append(ciphertext)
            let box = try ChaChaPoly.SealedBox(combined: combined)
            plaintext = try ChaChaPoly.open(box, using: SymmetricKey(data: key), authenticating: associatedData)
        } catch {
            throw .authenticationFailed
        }
        nonce += 1
        return plaintext
    }

    /// Rekey(): k = REKEY(k), the first 32 bytes of ENCRYPT(k, 2^64-1, empty, 32 zero bytes) (spec §4.2).
    /// The nonce is left alone. With no key there is nothing to replace.
    mutating func rekey() throws(NoiseError) {
        guard let key else { return }
        let zeros = Data(count: NoiseConstants.keyLength)
        let sealed = try Self.seal(zeros, key: key, nonce: .max, associatedData: Data())
        self.key = Data(sealed.prefix(NoiseConstants.keyLength))
    }

    /// ENCRYPT(k, n, ad, plaintext) for ChaChaPoly.
    private static func seal(_ plaintext: Data, key: Data, nonce: UInt64, associatedData: Data) throws(NoiseError) -> Data {
        do {
            let nonce = try withNonceBytes(nonce) { try ChaChaPoly.Nonce(data: $0) }
            let box = try ChaChaPoly.seal(plaintext, using: SymmetricKey(data: key), nonce: nonce, authenticating: associatedData)
            // Ciphertext and tag follow the nonce in the box's one buffer: one copy takes both.
            return Data(box.combined.dropFirst(nonceLength))
        } catch {
            throw .cryptoFailure
        }
    }

    /// ChaChaPoly's nonce, in bytes.
    private static let nonceLength = 12

    /// The 96-bit ChaChaPoly nonce: 32 zero bits, then the counter in little-endian (spec §12.3),
    /// as bytes on the stack.
    private static func withNonceBytes<Result>(_ counter: UInt64, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var words = (UInt32(0), UInt32(truncatingIfNeeded: counter).littleEndian, UInt32(truncatingIfNeeded: counter >> 32).littleEndian)
        return try withUnsafeBytes(of: &words) { try body($0) }
    }
}
