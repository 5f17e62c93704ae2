import Foundation
import RelayNoise
import Testing

@Suite("Transport sessions")
struct TransportSessionTests {
    @Test("A flipped bit in a transport message is rejected and the next genuine message still decrypts")
    func tamperedMessage() throws {
        var sessions = try SessionPair()
        let message = try sessions.initiator.encrypt(Data("battery low".utf8))

        for byte in 0..<message.count {
            let tampered = message.flippingBit(7 - byte % 8, ofByte: byte)
            #expect(throws: NoiseError.authenticationFailed, "byte \(byte)") {
                try sessions.responder.decrypt(tampered)
            }
        }
        // A failed decryption leaves the nonce where it was (spec §5.1).
        #expect(sessions.responder.receivingNonce == 0)
        #expect(try sessions.responder.decrypt(message) == Data("battery low".utf8))
    }

    @Test("A replayed transport message is rejected")
    func replayedMessage() throws {
        var sessions = try SessionPair()
        let message = try sessions.initiator.encrypt(Data("call from Ada".utf8))
        _ = try sessions.responder.decrypt(message)
        #expect(throws: NoiseError.authenticationFailed) { try sessions.responder.decrypt(message) }
    }

    @Test("Reordered transport messages are rejected")
    func reorderedMessages() throws {
        var sessions = try SessionPair()
        let first = try sessions.responder.encrypt(Data("first".utf8))
        let second = try sessions.responder.encrypt(Data("second".utf8))
        #expect(throws: NoiseError.authenticationFailed) { try sessions.initiator.decrypt(second) }
        #expect(try sessions.initiator.decrypt(first) == Data("first".utf8))
        #expect(try sessions.initiator.decrypt(second) == Data("second".utf8))
    }

    @Test("A message cannot be reflected back to its sender")
    func reflectedMessage() throws {
        var sessions = try SessionPair()
        let message = try sessions.initiator.encrypt(Data("ping".utf8))
        #expect(throws: NoiseError.authenticationFailed) { try sessions.initiator.decrypt(message) }
    }

    @Test("Nonces count the messages in each direction")
    func nonces() throws {
        var sessions = try SessionPair()
        try exchangeBothWays(&sessions.initiator, &sessions.responder, rounds: 4)
        _ = try sessions.initiator.encrypt(Data())
        #expect(sessions.initiator.sendingNonce == 5)
        #expect(sessions.initiator.receivingNonce == 4)
        #expect(sessions.responder.sendingNonce == 4)
        #expect(sessions.responder.receivingNonce == 4)
    }

    @Test("Messages are limited to 65535 bytes")
    func lengthLimits() throws {
        var sessions = try SessionPair()
        let largest = try sessions.initiator.encrypt(Data(count: NoiseConstants.maxPlaintextLength))
        #expect(largest.count == NoiseConstants.maxMessageLength)
        #expect(try sessions.responder.decrypt(largest).count == NoiseConstants.maxPlaintextLength)

        #expect(throws: NoiseError.messageTooLong(length: 65_536, maximum: 65_535)) {
            try sessions.initiator.encrypt(Data(count: NoiseConstants.maxPlaintextLength + 1))
        }
        #expect(throws: NoiseError.messageTooLong(length: 65_536, maximum: 65_535)) {
            try sessions.responder.decrypt(Data(count: 65_536))
        }
        #expect(throws: NoiseError.messageTooShort(length: 15, minimum: 16)) {
            try sessions.responder.decrypt(Data(count: 15))
        }
        #expect(throws: NoiseError.authenticationFailed) { try sessions.responder.decrypt(Data(count: 16)) }
    }

    @Test("An empty message round-trips as a bare tag")
    func emptyMessage() throws {
        var sessions = try SessionPair()
        let message = try sessions.responder.encrypt(Data())
        #expect(message.count == NoiseConstants.tagLength)
        #expect(try sessions.initiator.decrypt(message).isEmpty)
    }

    @Test("Rekeying both ends keeps the session working; rekeying one end breaks it")
    func rekey() throws {
        var sessions = try SessionPair()
        try sessions.initiator.rekeySending()
        try sessions.responder.rekeyReceiving()
        try sessions.responder.rekeySending()
        try sessions.initiator.rekeyReceiving()
        try exchangeBothWays(&sessions.initiator, &sessions.responder, rounds: 2)

        try sessions.initiator.rekeySending()
        let message = try sessions.initiator.encrypt(Data("after one-sided rekey".utf8))
        #expect(throws: NoiseError.authenticationFailed) { try sessions.responder.decrypt(message) }
    }

    @Test("Sessions from separate handshakes cannot read each other")
    func independentSessions() throws {
        var first = try SessionPair()
        var second = try SessionPair()
        #expect(first.initiator.handshakeHash != second.initiator.handshakeHash)
        let message = try first.initiator.encrypt(Data("hello".utf8))
        #expect(throws: NoiseError.authenticationFailed) { try second.responder.decrypt(message) }
    }
}
