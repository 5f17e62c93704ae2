import Foundation
import RelayLink
import RelayTestSupport
import RelayWire
import Testing

@Suite struct HandshakeTests {
    let phone = StaticKeyPair.generate()
    let wearable = StaticKeyPair.generate()

    @Test func pairingLearnsBothKeysAndAgreesOnTheHash() throws {
        var run = HandshakeRun(
            initiator: LinkHandshake(initiating: .pair, localKey: phone),
            responder: LinkHandshake(responding: .init(pairable: true, partnerKey: nil), localKey: wearable))
        run.run()
        #expect(HandshakeRun.established(run.initiatorSteps))
        #expect(HandshakeRun.established(run.responderSteps))
        let summary = try run.summary()
        #expect(summary.initiatorLearned == wearable.publicKey)
        #expect(summary.responderLearned == phone.publicKey)
        #expect(summary.initiatorHash == summary.responderHash)
        #expect(summary.mode == .pair && summary.version == 1)
    }

    @Test func sessionWithStoredKeysCompletes() throws {
        var run = HandshakeRun(
            initiator: LinkHandshake(initiating: .session(partnerKey: wearable.publicKey), localKey: phone),
            responder: LinkHandshake(responding: .init(pairable: false, partnerKey: phone.publicKey), localKey: wearable))
        run.run()
        #expect(HandshakeRun.established(run.initiatorSteps) && HandshakeRun.established(run.responderSteps))
        #expect(try run.summary().mode == .session)
    }

    @Test func anUnknownPeerIsRefused() {
        let stranger = StaticKeyPair.generate()
        var run = HandshakeRun(
            initiator: LinkHandshake(initiating: .session(partnerKey: wearable.publicKey), localKey: stranger),
            responder: LinkHandshake(responding: .init(pairable: false, partnerKey: phone.publicKey), localKey: wearable))
        run.run()
        guard case .handshakeFailed? = run.responderFailure else {
            Issue.record("expected the wearable to refuse the stranger, got \(run.responderSteps)")
            return
        }
        #expect(!HandshakeRun.established(run.initiatorSteps))
    }

    @Test func versionMismatchIsReportedToTheInitiator() {
        var run = HandshakeRun(
            initiator: LinkHandshake(initiating: .pair, localKey: phone, versions: 2...3),
            responder: LinkHandshake(responding: .init(pairable: true, partnerKey: nil), localKey: wearable, versions: 1...1))
        run.run()
        #expect(run.initiatorFailure == .versionMismatch(local: 2...3, remote: 1...1))
        #expect(run.responderFailure == .versionMismatch(local: 1...1, remote: 2...3))
        #expect(run.initiatorFailure?.description.contains("update Relay on the side with the older version") == true)
    }

    @Test func refusalsSayWhatToDo() {
        var notPairable = HandshakeRun(
            initiator: LinkHandshake(initiating: .pair, localKey: phone),
            responder: LinkHandshake(responding: .init(pairable: false, partnerKey: nil), localKey: wearable))
        notPairable.run()
        #expect(notPairable.initiatorFailure == .refused(.notPairable))
        // The responder's own log says that it refused, not that its peer did.
        #expect(notPairable.responderFailure == .refusedOffer(.notPairable))
        #expect(notPairable.responderFailure?.description.hasPrefix("refused a pairing") == true)
        var notPaired = HandshakeRun(
            initiator: LinkHandshake(initiating: .session(partnerKey: wearable.publicKey), localKey: phone),
            responder: LinkHandshake(responding: .init(pairable: false, partnerKey: nil), localKey: wearable))
        notPaired.run()
        #expect(notPaired.initiatorFailure == .refused(.notPaired))
        #expect(notPaired.initiatorFailure?.description.contains("relayctl pair") == true)
    }

    @Test(arguments: 0..<4)
    func tamperingWithAnyHandshakeFrameFails(index: Int) {
        var run = HandshakeRun(
            initiator: LinkHandshake(initiating: .pair, localKey: phone),
            responder: LinkHandshake(responding: .init(pairable: true, partnerKey: nil), localKey: wearable))
        run.tamper = { frameIndex, frame in
            guard frameIndex == index else { return frame }
            var altered = frame
            altered[altered.startIndex + altered.count - 1] ^= 0x01
            return altered
        }
        run.run()
        let bothEstablished = HandshakeRun.established(run.initiatorSteps) && HandshakeRun.established(run.responderSteps)
        #expect(!bothEstablished, "tampering with frame \(index) went unnoticed")
        #expect(run.initiatorFailure != nil || run.responderFailure != nil)
    }

    @Test func garbageInsteadOfAPreamble() {
        var wearableSide = LinkHandshake(responding: .init(pairable: true, partnerKey: nil), localKey: wearable)
        #expect(wearableSide.receive(Data("GET / HTTP/1.1\r\n".utf8)) == [.failed(.malformedPreamble("malformed preamble: 16 bytes instead of 8"))])
        var other = LinkHandshake(responding: .init(pairable: true, partnerKey: nil), localKey: wearable)
        #expect(other.receive(Data("GET / HT".utf8)) == [.failed(.notRelay)])
    }
}
