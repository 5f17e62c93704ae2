import Foundation
import RelayWire

extension PhoneConformance {
    /// §9.1 with the phone receiving `UNPAIRED`; the pairing case after it pairs the phone again.
    static let unpairingCase = ConformanceCase(
        "§9.1", "an Error UNPAIRED from the partner: the phone closes without answering and forgets it, so it does not come back in session mode"
    ) { target in
        guard target.mayUnpair, target.startPairing != nil else {
            throw ConformanceSkip(reason: "it unpairs the phone, and the pairing case pairs it again: allow it with --may-unpair and --pair-command")
        }
        guard case .connectsTo(let listener) = target.reach else { return }
        try await session(target) { script, _ in
            var unpaired = Relay_V1_Error()
            unpaired.code = .unpaired
            unpaired.message = "relay-conformance unpaired this phone"
            try await script.send(.error(unpaired))
            let frames = try await script.expectClose("§9", "after the wearable's Error")
            if let error = script.errorEnvelope(in: frames) {
                throw ConformanceFailure("§9", "the phone answered an Error with one of its own: \(error.message)")
            }
        }
        // A paired phone comes back within a few seconds of a session's end (§8.9: Relay's
        // first wait is 1 s, at most 5 s for two minutes); one that forgot has no one to offer
        // a session to.
        guard let connection = try await listener.connection(within: .seconds(5)) else { return }
        let offer = try await target.script(on: connection) { script in try await script.receiveFrame("§4.1", "the phone's offer") }
        guard offer.count == 8, offer[offer.startIndex + 6] == 2 else { return }
        throw ConformanceFailure("§9.1", "the phone offered a session again after the partner's Error UNPAIRED: it did not forget the partner")
    }

    /// §7.2's failure a wearable can cause: a nonce that does not match its commitment.
    static let commitmentMismatchCase = ConformanceCase(
        "§7.2", "a wearable nonce that does not match its commitment fails the pairing: the phone closes, and its pairing command fails"
    ) { target in
        guard let startPairing = target.startPairing else {
            throw ConformanceSkip(reason: "no way to make the phone pair (--pair-command)")
        }
        let pairing = Task { try await startPairing() }
        defer { pairing.cancel() }
        try await takePairingConnection(target) { script, offer in
            let h = try await script.acceptPairing(offer: offer, wearableKey: target.localPrivateKey, phoneKey: target.peerPublicKey)
            try await script.send(.hello(WireScript.pairingHello(role: .wearable)))
            try await script.send(.commitment(PairingValues.commitment(handshakeHash: h, wearableNonce: PairingValues.nonce())))
            _ = try await script.receivePairingHello(role: .phone)
            guard case .initiatorNonce = try await script.receivePairingStep("§7.2", "step 2, the phone's nonce") else {
                throw ConformanceFailure("§7.2", "step 2 must be the phone's nonce")
            }
            try await script.send(.responderNonce(PairingValues.nonce()))
            _ = try await script.expectClose("§7.2", "a nonce that does not match the commitment")
        }
        if let shown = try? await pairing.value {
            throw ConformanceFailure("§7.2", "the pairing command succeeded after a commitment mismatch; it printed: \(shown)")
        }
    }

    /// §7 with the phone as the initiator: this side plays a wearable in pairing mode, with the
    /// key the phone already holds, so the phone is paired as before afterwards.
    static let pairingCase = ConformanceCase(
        "§7",
        "the phone pairs: pair mode, XX, its nonce after the commitment, the code it shows, its confirmation, Error 'pairing finished' and the close; then a session"
    ) { target in
        guard let startPairing = target.startPairing else {
            throw ConformanceSkip(reason: "no way to make the phone pair (--pair-command)")
        }
        let pairing = Task { try await startPairing() }
        defer { pairing.cancel() }
        let code = try await takePairingConnection(target) { script, offer in try await pair(script, offer: offer, target) }
        let shown = try await pairing.value
        guard shown.contains(code) else {
            throw ConformanceFailure("§7.1", "the phone did not show the code \(code) computed from the document; it showed: \(shown)")
        }
        try await session(target) { script, _ in try await script.roundTrip("§7.4", "the first session after pairing") }
    }

    /// Takes the phone's connections until one offers pair mode, and runs `body` on it with
    /// the offer; a session offer made before the pairing began is closed unanswered.
    private static func takePairingConnection<Result: Sendable>(
        _ target: ConformanceTarget, _ body: (WireScript, Data) async throws -> Result
    ) async throws -> Result {
        let deadline = ContinuousClock.now + target.patience
        while true {
            let result = try await target.connect { script -> Result? in
                let offer = try await script.receiveFrame("§4.1", "the phone's offer")
                guard offer.count == 8, offer[offer.startIndex + 6] == 1 else { return nil }
                try Preambles.check(offer: offer, mode: 1)
                return try await body(script, offer)
            }
            if let result { return result }
            guard ContinuousClock.now < deadline else {
                throw ConformanceFailure("§4.1", "the phone did not offer pair mode (mode 1) within \(target.patience) of the pairing's start")
            }
        }
    }

    /// The exchange of §7.2 as the wearable, then §7.4's end; returns the code.
    private static func pair(_ script: WireScript, offer: Data, _ target: ConformanceTarget) async throws -> String {
        let h = try await script.acceptPairing(offer: offer, wearableKey: target.localPrivateKey, phoneKey: target.peerPublicKey)
        try await script.send(.hello(WireScript.pairingHello(role: .wearable)))
        let wearableNonce = PairingValues.nonce()
        try await script.send(.commitment(PairingValues.commitment(handshakeHash: h, wearableNonce: wearableNonce)))
        _ = try await script.receivePairingHello(role: .phone)
        guard case .initiatorNonce(let phoneNonce) = try await script.receivePairingStep("§7.2", "step 2, the phone's nonce"),
            phoneNonce.count == 32
        else { throw ConformanceFailure("§7.2", "step 2 must be the phone's nonce of 32 bytes") }
        try await script.send(.responderNonce(wearableNonce))
        try await script.send(.confirmed(true))
        guard case .confirmed(let matched) = try await script.receivePairingStep("§7.2", "step 4, the phone's confirmation") else {
            throw ConformanceFailure("§7.2", "expected the phone's confirmation after the wearable's nonce")
        }
        guard matched else { throw ConformanceFailure("§7.2", "the phone answered that the codes differ") }
        let frames = try await script.expectClose("§7.4", "the phone's close after a pairing that succeeded")
        guard let finished = script.errorEnvelope(in: frames), finished.code == .unspecified else {
            throw ConformanceFailure("§7.4", "expected Error{UNSPECIFIED, \"pairing finished\"} before the phone's close")
        }
        return PairingValues.code(handshakeHash: h, phoneNonce: phoneNonce, wearableNonce: wearableNonce)
    }
}
