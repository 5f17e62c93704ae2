import Foundation
import RelayLink
import RelayWire
import Testing

@Suite struct PairingTests {
    /// Runs the exchange with both users answering `phoneSays` and `wearableSays`.
    private func run(
        hash: Data = Data(repeating: 7, count: 32), phoneSays: Bool = true, wearableSays: Bool = true,
        alterReveal: Bool = false
    ) -> (phone: [PairingExchange.Step], wearable: [PairingExchange.Step]) {
        var phone = PairingExchange(side: .initiator, handshakeHash: hash, nonce: Data(repeating: 1, count: 32))
        var wearable = PairingExchange(side: .responder, handshakeHash: hash, nonce: Data(repeating: 2, count: 32))
        var phoneSteps: [PairingExchange.Step] = []
        var wearableSteps = wearable.start()
        var toPhone = wearableSteps
        var toWearable: [PairingExchange.Step] = []
        for _ in 0..<6 {
            for case .send(var message) in toPhone {
                if alterReveal, case .responderNonce = message.step { message.responderNonce = Data(repeating: 3, count: 32) }
                let steps = phone.receive(message)
                phoneSteps += steps
                toWearable += steps
            }
            toPhone = []
            for case .send(let message) in toWearable {
                let steps = wearable.receive(message)
                wearableSteps += steps
                toPhone += steps
            }
            toWearable = []
            if phone.shownCode != nil, wearable.shownCode != nil {
                let p = phone.decide(phoneSays)
                let w = wearable.decide(wearableSays)
                phoneSteps += p
                wearableSteps += w
                toWearable += p
                toPhone += w
            }
        }
        return (phoneSteps, wearableSteps)
    }

    private func code(_ steps: [PairingExchange.Step]) -> String? {
        for case .showCode(let code) in steps { return code }
        return nil
    }

    @Test func bothSidesShowTheSameSixDigitsAndPair() throws {
        let (phone, wearable) = run()
        let shown = try #require(code(phone))
        #expect(shown.count == 6 && shown.allSatisfy(\.isNumber))
        #expect(code(wearable) == shown)
        #expect(phone.contains(.paired) && wearable.contains(.paired))
    }

    @Test func differentHandshakesGiveDifferentCodes() {
        let codes = Set((0..<50).compactMap { index in code(run(hash: Data(repeating: UInt8(index), count: 32)).phone) })
        #expect(codes.count > 45)
    }

    @Test func aRevealThatBreaksTheCommitmentStopsPairing() {
        let (phone, _) = run(alterReveal: true)
        #expect(phone.contains(.failed(.commitmentMismatch)))
        #expect(code(phone) == nil)
    }

    @Test func eitherUserCanReject() {
        let (phone, wearable) = run(wearableSays: false)
        #expect(wearable.contains(.failed(.rejectedLocally)))
        #expect(phone.contains(.failed(.rejectedByPeer)))
        #expect(!phone.contains(.paired))
    }

    @Test func messagesOutOfOrderFail() {
        var phone = PairingExchange(side: .initiator, handshakeHash: Data(count: 32))
        #expect(phone.receive(.with { $0.responderNonce = Data(count: 32) }) == [.failed(.malformed("a pairing message out of order"))])
        var wearable = PairingExchange(side: .responder, handshakeHash: Data(count: 32))
        #expect(wearable.receive(.with { $0.initiatorNonce = Data(count: 5) }) == [.failed(.malformed("the phone's nonce is not 32 bytes"))])
    }
}
