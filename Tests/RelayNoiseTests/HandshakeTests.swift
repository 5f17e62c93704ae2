import Crypto
import Foundation
import RelayNoise
import Testing

@Suite("Handshakes with generated keys")
struct HandshakeTests {
    @Test("Every pattern completes and carries messages both ways", arguments: NoiseHandshakePattern.fundamental.map(\.name))
    func freshKeys(patternName: String) throws {
        let pattern = try #require(NoiseHandshakePattern.named(patternName))
        let keys = PartyKeys()
        var initiator = try keys.handshake(pattern, role: .initiator)
        var responder = try keys.handshake(pattern, role: .responder)
        try completeHandshake(&initiator, &responder)
        #expect(initiator.handshakeHash == responder.handshakeHash)

        var sessions = try SessionPair(finishing: initiator, responder)
        try exchangeBothWays(&sessions.initiator, &sessions.responder, rounds: 3)
    }

    @Test("XX authenticates both static keys")
    func xxAuthenticatesBothStatics() throws {
        let keys = PartyKeys()
        var initiator = try keys.handshake(.xx, role: .initiator)
        var responder = try keys.handshake(.xx, role: .responder)
        #expect(initiator.remoteStaticKey == nil)
        #expect(responder.remoteStaticKey == nil)
        try completeHandshake(&initiator, &responder)

        let initiatorSession = try initiator.finish()
        let responderSession = try responder.finish()
        #expect(initiatorSession.remoteStaticKey?.rawRepresentation == keys.responderStatic.publicKey.rawRepresentation)
        #expect(responderSession.remoteStaticKey?.rawRepresentation == keys.initiatorStatic.publicKey.rawRepresentation)
        #expect(initiatorSession.handshakeHash == responderSession.handshakeHash)
    }

    @Test("A static key from a message that fails authentication is not reported")
    func unprovenStaticKeyHidden() throws {
        let keys = PartyKeys()
        var initiator = try keys.handshake(.xx, role: .initiator)
        var responder = try keys.handshake(.xx, role: .responder)
        _ = try responder.readMessage(try initiator.writeMessage())
        _ = try initiator.readMessage(try responder.writeMessage())
        let third = try initiator.writeMessage(Data("payload".utf8))
        // Only the payload's tag is damaged: the encrypted static key itself still decrypts.
        let tampered = third.flippingBit(0, ofByte: third.count - 1)
        #expect(throws: NoiseError.authenticationFailed) { try responder.readMessage(tampered) }
        #expect(responder.remoteStaticKey == nil)
    }

    @Test("KK completes with pre-shared keys and exchanges messages both ways")
    func kkCompletes() throws {
        var sessions = try SessionPair(.kk)
        try exchangeBothWays(&sessions.initiator, &sessions.responder, rounds: 5)
    }

    @Test("A KK responder expecting another initiator key fails the handshake")
    func kkRejectsUnknownInitiator() throws {
        let keys = PartyKeys()
        let impostor = PartyKeys()
        var initiator = try keys.handshake(.kk, role: .initiator)
        var responder = try HandshakeState(
            pattern: .kk, role: .responder, prologue: Data("relay".utf8),
            localStaticKey: keys.responderStatic, remoteStaticKey: impostor.initiatorStatic.publicKey)

        let first = try initiator.writeMessage(Data("hello".utf8))
        #expect(throws: NoiseError.authenticationFailed) { try responder.readMessage(first) }
        #expect(responder.status == .failed)
    }

    @Test("Different prologues fail the handshake")
    func prologueMismatch() throws {
        var initiator = try HandshakeState(pattern: .nn, role: .initiator, prologue: Data("relay v1".utf8))
        var responder = try HandshakeState(pattern: .nn, role: .responder, prologue: Data("relay v2".utf8))
        // NN's first message is unencrypted, so the mismatch surfaces at the first authenticated payload.
        _ = try responder.readMessage(try initiator.writeMessage())
        let second = try responder.writeMessage()
        #expect(throws: NoiseError.authenticationFailed) { try initiator.readMessage(second) }
    }

    @Test("Every single-bit change to a handshake message is detected")
    func tamperedHandshakeMessage() throws {
        let keys = PartyKeys()
        // XX's second message has a clear ephemeral key, an encrypted static key and an encrypted payload.
        var initiator = try keys.handshake(.xx, role: .initiator, injectEphemerals: true)
        var responder = try keys.handshake(.xx, role: .responder, injectEphemerals: true)
        let first = try initiator.writeMessage()
        _ = try responder.readMessage(first)
        let second = try responder.writeMessage(Data("payload".utf8))

        for byte in 0..<second.count {
            // Injected ephemerals make the replayed first message, and so the state, identical each time.
            var victim = try keys.handshake(.xx, role: .initiator, injectEphemerals: true)
            #expect(try victim.writeMessage() == first)
            let tampered = second.flippingBit(byte % 8, ofByte: byte)
            #expect(throws: NoiseError.authenticationFailed, "byte \(byte)") { try victim.readMessage(tampered) }
            #expect(victim.status == .failed)
        }
        #expect(try initiator.readMessage(second) == Data("payload".utf8))
    }

    @Test("A truncated handshake message is rejected")
    func truncatedHandshakeMessage() throws {
        let keys = PartyKeys()
        var initiator = try keys.handshake(.xx, role: .initiator, injectEphemerals: true)
        var responder = try keys.handshake(.xx, role: .responder)
        _ = try responder.readMessage(try initiator.writeMessage())
        let second = try responder.writeMessage()
        // e (32) + encrypted s (32 + 16) + tag of the empty payload (16).
        #expect(second.count == 96)

        #expect(throws: NoiseError.messageTooShort(length: 50, minimum: 96)) {
            try initiator.readMessage(second.prefix(50))
        }
        #expect(initiator.status == .failed)
        #expect(throws: NoiseError.handshakeFailed) { try initiator.readMessage(second) }

        var retry = try keys.handshake(.xx, role: .initiator, injectEphemerals: true)
        _ = try retry.writeMessage()
        #expect(throws: NoiseError.messageTooShort(length: 0, minimum: 96)) { try retry.readMessage(Data()) }
    }

    @Test("A handshake message with a trailing byte removed fails authentication")
    func shortenedPayload() throws {
        let keys = PartyKeys()
        var initiator = try keys.handshake(.nn, role: .initiator)
        var responder = try keys.handshake(.nn, role: .responder)
        _ = try responder.readMessage(try initiator.writeMessage())
        let second = try responder.writeMessage(Data("payload".utf8))
        #expect(throws: NoiseError.authenticationFailed) { try initiator.readMessage(second.dropLast()) }
    }

    @Test("Writing or reading out of turn throws and leaves the handshake usable")
    func outOfTurn() throws {
        let keys = PartyKeys()
        var initiator = try keys.handshake(.xx, role: .initiator)
        var responder = try keys.handshake(.xx, role: .responder)
        #expect(initiator.status == .writeMessage)
        #expect(responder.status == .readMessage)

        #expect(throws: NoiseError.writeOutOfTurn) { try responder.writeMessage() }
        #expect(throws: NoiseError.readOutOfTurn) { try initiator.readMessage(Data(count: 32)) }
        let first = try initiator.writeMessage()
        #expect(throws: NoiseError.writeOutOfTurn) { try initiator.writeMessage() }
        _ = try responder.readMessage(first)

        try completeRemaining(&initiator, &responder)
        #expect(initiator.status == .complete)
    }

    @Test("Messages after the last handshake message are refused")
    func afterCompletion() throws {
        let keys = PartyKeys()
        var initiator = try keys.handshake(.nn, role: .initiator)
        var responder = try keys.handshake(.nn, role: .responder)
        try completeHandshake(&initiator, &responder)

        #expect(throws: NoiseError.handshakeAlreadyComplete) { try initiator.writeMessage() }
        #expect(throws: NoiseError.handshakeAlreadyComplete) { try responder.readMessage(Data(count: 48)) }
        #expect(initiator.status == .complete)
    }

    @Test("Transport keys are unavailable before the handshake ends or after it fails")
    func finishTooEarly() throws {
        let keys = PartyKeys()
        var initiator = try keys.handshake(.nn, role: .initiator)
        _ = try initiator.writeMessage()
        expectFinish(initiator, throws: .handshakeIncomplete)

        var failed = try keys.handshake(.nn, role: .initiator)
        _ = try failed.writeMessage()
        #expect(throws: NoiseError.messageTooShort(length: 1, minimum: 48)) { try failed.readMessage(Data([0])) }
        expectFinish(failed, throws: .handshakeFailed)
    }

    @Test("Payloads are limited so that a message fits in 65535 bytes")
    func handshakeMessageLimit() throws {
        let keys = PartyKeys()
        var initiator = try keys.handshake(.nn, role: .initiator)
        // NN's first message is a 32-byte ephemeral key and the clear payload.
        let largest = NoiseConstants.maxMessageLength - 32
        #expect(throws: NoiseError.messageTooLong(length: 65_536, maximum: 65_535)) {
            try initiator.writeMessage(Data(count: largest + 1))
        }
        #expect(initiator.status == .writeMessage)
        let message = try initiator.writeMessage(Data(count: largest))
        #expect(message.count == NoiseConstants.maxMessageLength)

        var responder = try keys.handshake(.nn, role: .responder)
        #expect(throws: NoiseError.messageTooLong(length: 65_536, maximum: 65_535)) {
            try responder.readMessage(Data(count: 65_536))
        }
    }

    @Test("Keys must match what the pattern uses")
    func keyValidation() throws {
        let keys = PartyKeys()
        #expect(throws: NoiseError.missingKey(.localStatic)) {
            _ = try HandshakeState(pattern: .xx, role: .initiator)
        }
        #expect(throws: NoiseError.unexpectedKey(.localStatic)) {
            _ = try HandshakeState(pattern: .nn, role: .initiator, localStaticKey: keys.initiatorStatic)
        }
        #expect(throws: NoiseError.missingKey(.remoteStatic)) {
            _ = try HandshakeState(pattern: .nk, role: .initiator)
        }
        #expect(throws: NoiseError.unexpectedKey(.remoteStatic)) {
            _ = try HandshakeState(
                pattern: .xx, role: .initiator, localStaticKey: keys.initiatorStatic,
                remoteStaticKey: keys.responderStatic.publicKey)
        }
        // NK's responder has a static key, but its initiator has none for the responder to know.
        #expect(throws: NoiseError.unexpectedKey(.remoteStatic)) {
            _ = try HandshakeState(
                pattern: .nk, role: .responder, localStaticKey: keys.responderStatic,
                remoteStaticKey: keys.initiatorStatic.publicKey)
        }
    }

    @Test("A protocol name selects the pattern")
    func protocolNameInitializer() throws {
        let keys = PartyKeys()
        var initiator = try HandshakeState(
            protocolName: "Noise_IK_25519_ChaChaPoly_SHA256", role: .initiator, prologue: Data("relay".utf8),
            localStaticKey: keys.initiatorStatic, remoteStaticKey: keys.responderStatic.publicKey)
        #expect(initiator.pattern == .ik)
        var responder = try keys.handshake(.ik, role: .responder)
        try completeHandshake(&initiator, &responder)
        #expect(throws: NoiseError.unsupportedPatternModifier("psk1")) {
            _ = try HandshakeState(protocolName: "Noise_IKpsk1_25519_ChaChaPoly_SHA256", role: .initiator)
        }
    }
}

/// Checks that `finish()` throws `expected`; a closure for `#expect(throws:)` cannot consume the state.
private func expectFinish(
    _ state: consuming HandshakeState, throws expected: NoiseError, sourceLocation: SourceLocation = #_sourceLocation
) {
    do throws(NoiseError) {
        _ = try state.finish()
        Issue.record("finish() succeeded", sourceLocation: sourceLocation)
    } catch {
        #expect(error == expected, sourceLocation: sourceLocation)
    }
}

/// Finishes a handshake already under way.
private func completeRemaining(_ initiator: inout HandshakeState, _ responder: inout HandshakeState) throws {
    while initiator.status != .complete {
        if initiator.status == .writeMessage {
            _ = try responder.readMessage(try initiator.writeMessage())
        } else {
            _ = try initiator.readMessage(try responder.writeMessage())
        }
    }
}

/// Sends `rounds` messages each way, interleaved, and checks each arrives intact.
func exchangeBothWays(_ initiator: inout TransportSession, _ responder: inout TransportSession, rounds: Int) throws {
    for round in 0..<rounds {
        let request = Data("notification \(round)".utf8)
        #expect(try responder.decrypt(try initiator.encrypt(request)) == request)
        let reply = Data("acknowledged \(round)".utf8)
        #expect(try initiator.decrypt(try responder.encrypt(reply)) == reply)
    }
}
