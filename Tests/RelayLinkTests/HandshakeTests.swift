import Foundation
import RelayLink
import RelayWire
import Testing

/// Runs two handshake machines against each other, shuttling frames until both settle.
struct HandshakeRun: ~Copyable {
    var initiator: LinkHandshake
    var responder: LinkHandshake
    var initiatorSteps: [LinkHandshake.Step] = []
    var responderSteps: [LinkHandshake.Step] = []
    /// Applied to every frame on its way, to play an attacker.
    var tamper: (Int, Data) -> Data = { _, frame in frame }

    init(initiator: consuming LinkHandshake, responder: consuming LinkHandshake) {
        self.initiator = initiator
        self.responder = responder
    }

    mutating func run() {
        var toResponder = initiator.start()
        initiatorSteps += toResponder
        var frameIndex = 0
        var toInitiator: [LinkHandshake.Step] = []
        while true {
            var progressed = false
            for case .send(let frame) in toResponder {
                let steps = responder.receive(tamper(frameIndex, frame))
                frameIndex += 1
                responderSteps += steps
                toInitiator += steps
                progressed = true
            }
            toResponder = []
            for case .send(let frame) in toInitiator {
                let steps = initiator.receive(tamper(frameIndex, frame))
                frameIndex += 1
                initiatorSteps += steps
                toResponder += steps
                progressed = true
            }
            toInitiator = []
            if !progressed { return }
        }
    }

    var initiatorFailure: LinkFailure? { Self.failure(initiatorSteps) }
    var responderFailure: LinkFailure? { Self.failure(responderSteps) }

    static func failure(_ steps: [LinkHandshake.Step]) -> LinkFailure? {
        for case .failed(let failure) in steps { return failure }
        return nil
    }

    static func established(_ steps: [LinkHandshake.Step]) -> Bool {
        steps.contains(.established)
    }
}

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
        let phoneSide = try run.initiator.finish()
        let wearableSide = try run.responder.finish()
        #expect(phoneSide.remoteStaticKey == wearable.publicKey)
        #expect(wearableSide.remoteStaticKey == phone.publicKey)
        #expect(phoneSide.handshakeHash == wearableSide.handshakeHash)
        #expect(phoneSide.mode == .pair && phoneSide.version == 1)
    }

    @Test func sessionWithStoredKeysCompletes() throws {
        var run = HandshakeRun(
            initiator: LinkHandshake(initiating: .session(partnerKey: wearable.publicKey), localKey: phone),
            responder: LinkHandshake(responding: .init(pairable: false, partnerKey: phone.publicKey), localKey: wearable))
        run.run()
        #expect(HandshakeRun.established(run.initiatorSteps) && HandshakeRun.established(run.responderSteps))
        #expect(try run.responder.finish().mode == .session)
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
