import Crypto
import Foundation
@testable import RelayNoise
import Testing

/// Checks the spec's building blocks against swift-crypto used directly, independently of the Noise code.
@Suite("CipherState, SymmetricState and HKDF")
struct PrimitiveTests {
    private let key = Data((0..<32).map { UInt8($0) })

    @Test("The nonce is 32 zero bits and the 64-bit counter in little-endian")
    func nonceLayout() throws {
        var cipher = CipherState(key: key)
        cipher.setNonce(0x0102_0304_0506_0708)
        let plaintext = Data("nonce layout".utf8)
        let associatedData = Data("ad".utf8)
        let ciphertext = try cipher.encrypt(plaintext, associatedData: associatedData)

        let nonce = try ChaChaPoly.Nonce(data: [0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1])
        let box = try ChaChaPoly.seal(
            plaintext, using: SymmetricKey(data: key), nonce: nonce, authenticating: associatedData)
        #expect(ciphertext == box.ciphertext + box.tag)
        #expect(cipher.nonce == 0x0102_0304_0506_0709)
    }

    @Test("Without a key, a CipherState passes data through unchanged")
    func emptyKey() throws {
        var cipher = CipherState()
        let data = Data("clear".utf8)
        // Bools are read into locals: `#expect` cannot capture a non-copyable value to describe it.
        let hasKey = cipher.hasKey
        #expect(!hasKey)
        #expect(try cipher.encrypt(data, associatedData: Data()) == data)
        #expect(try cipher.decrypt(data, associatedData: Data()) == data)
        #expect(cipher.nonce == 0)
    }

    @Test("The reserved nonce 2^64-1 is never used")
    func nonceExhaustion() throws {
        var sender = CipherState(key: key)
        var receiver = CipherState(key: key)
        sender.setNonce(.max - 1)
        receiver.setNonce(.max - 1)
        let last = try sender.encrypt(Data("last".utf8), associatedData: Data())
        #expect(try receiver.decrypt(last, associatedData: Data()) == Data("last".utf8))

        #expect(throws: NoiseError.nonceExhausted) { try sender.encrypt(Data(), associatedData: Data()) }
        #expect(throws: NoiseError.nonceExhausted) { try receiver.decrypt(last, associatedData: Data()) }
    }

    @Test("A failed decryption does not advance the nonce")
    func failedDecryptKeepsNonce() throws {
        var sender = CipherState(key: key)
        var receiver = CipherState(key: key)
        let message = try sender.encrypt(Data("hi".utf8), associatedData: Data("right".utf8))
        #expect(throws: NoiseError.authenticationFailed) {
            try receiver.decrypt(message, associatedData: Data("wrong".utf8))
        }
        #expect(receiver.nonce == 0)
        #expect(try receiver.decrypt(message, associatedData: Data("right".utf8)) == Data("hi".utf8))
    }

    @Test("Rekey takes the first 32 bytes of encrypting zeros under nonce 2^64-1 and keeps the nonce")
    func rekeyMatchesSpec() throws {
        var cipher = CipherState(key: key)
        cipher.setNonce(7)
        try cipher.rekey()
        #expect(cipher.nonce == 7)

        let maxNonce = try ChaChaPoly.Nonce(data: [0, 0, 0, 0] + [UInt8](repeating: 0xff, count: 8))
        let newKey = try ChaChaPoly.seal(
            Data(count: 32), using: SymmetricKey(data: key), nonce: maxNonce, authenticating: Data()
        ).ciphertext
        var expected = CipherState(key: newKey)
        expected.setNonce(7)
        let probe = Data("probe".utf8)
        #expect(try cipher.encrypt(probe, associatedData: Data()) == expected.encrypt(probe, associatedData: Data()))
    }

    @Test("Noise's HKDF equals RFC 5869 HKDF with the chaining key as salt and empty info")
    func hkdfMatchesRFC5869() throws {
        let chainingKey = Data(SHA256.hash(data: Data("chaining key".utf8)))
        let inputKeyMaterial = Data("input key material".utf8)
        let reference = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: inputKeyMaterial), salt: chainingKey, info: Data(),
            outputByteCount: 96
        ).withUnsafeBytes { Data($0) }

        let (two1, two2) = NoiseHKDF.derive2(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial)
        #expect(two1 + two2 == reference.prefix(64))
        let (three1, three2, three3) = NoiseHKDF.derive3(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial)
        #expect(three1 + three2 + three3 == reference)

        let (empty1, empty2) = NoiseHKDF.derive2(chainingKey: chainingKey, inputKeyMaterial: Data())
        let emptyReference = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data()), salt: chainingKey, info: Data(), outputByteCount: 64
        ).withUnsafeBytes { Data($0) }
        #expect(empty1 + empty2 == emptyReference)
    }

    @Test("A protocol name of up to 32 bytes is zero-padded into h; a longer one is hashed")
    func initializeSymmetric() {
        let short = SymmetricState(protocolName: "Noise_NN_25519_ChaChaPoly_SHA256")
        #expect(short.handshakeHash == Data("Noise_NN_25519_ChaChaPoly_SHA256".utf8))
        let shorter = SymmetricState(protocolName: "Noise")
        #expect(shorter.handshakeHash == Data("Noise".utf8) + Data(count: 27))
        let longName = "Noise_XXpsk3_25519_ChaChaPoly_SHA256"
        let long = SymmetricState(protocolName: longName)
        #expect(long.handshakeHash == Data(SHA256.hash(data: Data(longName.utf8))))
        let longHasKey = long.hasKey
        #expect(!longHasKey)
    }

    @Test("MixKeyAndHash mixes the second HKDF output into h and keys the cipher with the third")
    func mixKeyAndHash() throws {
        let name = "Noise_NN_25519_ChaChaPoly_SHA256"
        var state = SymmetricState(protocolName: name)
        let inputKeyMaterial = Data("pre-shared key".utf8)
        state.mixKeyAndHash(inputKeyMaterial)
        let hasKey = state.hasKey
        #expect(hasKey)

        let initialHash = Data(name.utf8)
        let outputs = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: inputKeyMaterial), salt: initialHash, info: Data(),
            outputByteCount: 96
        ).withUnsafeBytes { Data($0) }
        let expectedHash = Data(SHA256.hash(data: initialHash + outputs.subdata(in: 32..<64)))
        #expect(state.handshakeHash == expectedHash)

        let plaintext = Data("payload".utf8)
        let ciphertext = try state.encryptAndHash(plaintext)
        let box = try ChaChaPoly.seal(
            plaintext, using: SymmetricKey(data: outputs.subdata(in: 64..<96)),
            nonce: ChaChaPoly.Nonce(data: Data(count: 12)), authenticating: expectedHash)
        #expect(ciphertext == box.ciphertext + box.tag)
    }
}
