import Crypto
import Foundation
import RelayNoise
import Testing

/// Replays every published cacophony vector and checks each byte this implementation produces.
@Suite("Cacophony test vectors")
struct NoiseVectorTests {
    @Test("The fixture covers all twelve fundamental patterns")
    func fixtureCoversEveryPattern() throws {
        let names = try CacophonyVector.loadAll().map(\.protocolName)
        let expected = NoiseHandshakePattern.fundamental.map { NoiseProtocolName(pattern: $0).description }
        #expect(names.count == expected.count)
        #expect(Set(names) == Set(expected))
    }

    @Test("Vector reproduces byte for byte", arguments: try CacophonyVector.loadAll())
    func vector(_ vector: CacophonyVector) throws {
        let pattern = try NoiseProtocolName(vector.protocolName).pattern
        var initiator = try HandshakeState(
            pattern: pattern, role: .initiator, prologue: vector.initPrologue.data,
            localStaticKey: try vector.initStatic?.privateKey(),
            localEphemeralKey: try vector.initEphemeral.privateKey(),
            remoteStaticKey: try vector.initRemoteStatic?.publicKey())
        var responder = try HandshakeState(
            pattern: pattern, role: .responder, prologue: vector.respPrologue.data,
            localStaticKey: try vector.respStatic?.privateKey(),
            localEphemeralKey: try vector.respEphemeral.privateKey(),
            remoteStaticKey: try vector.respRemoteStatic?.publicKey())

        let handshakeCount = pattern.messages.count
        try #require(vector.messages.count > handshakeCount, "the vector has no transport messages")

        // The writer alternates, starting with the initiator, through the handshake and beyond.
        for (index, message) in vector.messages.prefix(handshakeCount).enumerated() {
            if index.isMultiple(of: 2) {
                try exchange(message, from: &initiator, to: &responder)
            } else {
                try exchange(message, from: &responder, to: &initiator)
            }
        }

        #expect(initiator.status == .complete)
        #expect(responder.status == .complete)
        #expect(initiator.handshakeHash.hex == vector.handshakeHash.data.hex)
        #expect(responder.handshakeHash.hex == vector.handshakeHash.data.hex)

        var initiatorSession = try initiator.finish()
        var responderSession = try responder.finish()
        #expect(initiatorSession.handshakeHash == responderSession.handshakeHash)
        let responderStatic = try vector.respStatic?.privateKey().publicKey.rawRepresentation
        let initiatorStatic = try vector.initStatic?.privateKey().publicKey.rawRepresentation
        #expect(initiatorSession.remoteStaticKey?.rawRepresentation == responderStatic)
        #expect(responderSession.remoteStaticKey?.rawRepresentation == initiatorStatic)

        for (index, message) in vector.messages.enumerated().dropFirst(handshakeCount) {
            if index.isMultiple(of: 2) {
                try exchange(message, from: &initiatorSession, to: &responderSession)
            } else {
                try exchange(message, from: &responderSession, to: &initiatorSession)
            }
        }
    }

    private func exchange(
        _ message: CacophonyVector.Message, from writer: inout HandshakeState, to reader: inout HandshakeState
    ) throws {
        let ciphertext = try writer.writeMessage(message.payload.data)
        #expect(ciphertext.hex == message.ciphertext.data.hex)
        let payload = try reader.readMessage(ciphertext)
        #expect(payload.hex == message.payload.data.hex)
    }

    private func exchange(
        _ message: CacophonyVector.Message, from writer: inout TransportSession, to reader: inout TransportSession
    ) throws {
        let ciphertext = try writer.encrypt(message.payload.data)
        #expect(ciphertext.hex == message.ciphertext.data.hex)
        let payload = try reader.decrypt(ciphertext)
        #expect(payload.hex == message.payload.data.hex)
    }
}
