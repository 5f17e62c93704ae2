import Crypto
import Foundation
import Testing

/// One test vector from the cacophony suite, as published in the JSON fixture.
struct CacophonyVector: Decodable, Sendable, CustomTestStringConvertible {
    /// A handshake or transport message and the exact bytes it must encrypt to.
    struct Message: Decodable, Sendable {
        let payload: Hex
        let ciphertext: Hex
    }

    let protocolName: String
    let initPrologue: Hex
    let initStatic: Hex?
    let initEphemeral: Hex
    let initRemoteStatic: Hex?
    let respPrologue: Hex
    let respStatic: Hex?
    let respEphemeral: Hex
    let respRemoteStatic: Hex?
    let handshakeHash: Hex
    let messages: [Message]

    var testDescription: String { protocolName }

    /// Every vector in the fixture file.
    static func loadAll() throws -> [CacophonyVector] {
        struct File: Decodable {
            let vectors: [CacophonyVector]
        }
        let url = try #require(
            Bundle.module.url(
                forResource: "cacophony-25519-chachapoly-sha256", withExtension: "json", subdirectory: "Fixtures"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(File.self, from: Data(contentsOf: url)).vectors
    }
}

/// Bytes written in the fixture as a hexadecimal string.
struct Hex: Decodable, Sendable {
    let data: Data

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(hex: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not hexadecimal"))
        }
        self.data = data
    }

    /// The bytes as a Curve25519 private key.
    func privateKey() throws -> Curve25519.KeyAgreement.PrivateKey {
        try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: data)
    }

    /// The bytes as a Curve25519 public key.
    func publicKey() throws -> Curve25519.KeyAgreement.PublicKey {
        try Curve25519.KeyAgreement.PublicKey(rawRepresentation: data)
    }
}

extension Data {
    /// Parses an even-length hexadecimal string.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(bytes)
    }

    /// Lower-case hexadecimal, so that a failed comparison shows where the bytes differ.
    var hex: String {
        let digits = Array("0123456789abcdef")
        return String(flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A copy with one bit inverted, for tampering tests.
    func flippingBit(_ bit: Int, ofByte index: Int) -> Data {
        var copy = self
        copy[copy.startIndex + index] ^= 1 << bit
        return copy
    }
}
