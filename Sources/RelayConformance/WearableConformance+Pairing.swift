import Foundation
import RelayWire

extension WearableConformance {
    /// §7.2's failure the phone can cause: its user says the codes differ. Runs on the
    /// wearable §9.1's case unpaired, which stays unpaired.
    static let rejectedPairingCase = ConformanceCase(
        "§7.2",
        "the wearable's user confirms but the phone's says the codes differ: the wearable stores nothing, and a session offer is answered 'not paired'"
    ) { target in
        let confirm = try confirmationOrSkip(target)
        try await target.connect { script in
            let code = try await exchangeCodes(script, target)
            try await confirm(code)
            guard case .confirmed(true) = try await script.receivePairingStep("§7.2", "step 4, the wearable's answer to code \(code)") else {
                throw ConformanceFailure("§7.2", "expected the wearable's confirmation (its user confirmed)")
            }
            try await script.send(.confirmed(false))
            // Pairing failed on both sides: the wearable ends it too (§7.2, "Failure").
            _ = try await script.expectClose("§7.2", "the phone said the codes differ")
        }
        try await awaitSessionOfferStatus(3, target, "§7.2", "after the phone rejected the pairing")
    }

    /// How the wearable's user is made to confirm; skips the case unless the suite may pair
    /// (the wearable is unpaired by §9.1's case) and has a way to confirm.
    private static func confirmationOrSkip(_ target: ConformanceTarget) throws -> @Sendable (String) async throws -> Void {
        guard target.mayUnpair else { throw ConformanceSkip(reason: "it needs the wearable §9.1's case unpaired; allow it with --may-unpair") }
        guard let confirm = target.confirmPairing else {
            throw ConformanceSkip(reason: "no way to confirm the code on the wearable (--confirm-command)")
        }
        return confirm
    }

    /// The handshake, the Hellos and steps 1–3 of §7.2 as the phone; returns the code.
    private static func exchangeCodes(_ script: WireScript, _ target: ConformanceTarget) async throws -> String {
        let h = try await script.openPairing(phoneKey: target.localPrivateKey, wearableKey: target.peerPublicKey)
        try await script.send(.hello(WireScript.pairingHello(role: .phone)))
        _ = try await script.receivePairingHello(role: .wearable)
        guard case .commitment(let commitment) = try await script.receivePairingStep("§7.2", "step 1, the wearable's commitment"),
            commitment.count == 32
        else { throw ConformanceFailure("§7.2", "step 1 must be a commitment of 32 bytes") }
        let phoneNonce = PairingValues.nonce()
        try await script.send(.initiatorNonce(phoneNonce))
        guard case .responderNonce(let wearableNonce) = try await script.receivePairingStep("§7.2", "step 3, the wearable's nonce"),
            wearableNonce.count == 32
        else { throw ConformanceFailure("§7.2", "step 3 must be the wearable's nonce of 32 bytes") }
        guard PairingValues.commitment(handshakeHash: h, wearableNonce: wearableNonce) == commitment else {
            throw ConformanceFailure("§7.2", "the wearable's nonce does not hash to its commitment (commitment mismatch)")
        }
        return PairingValues.code(handshakeHash: h, phoneNonce: phoneNonce, wearableNonce: wearableNonce)
    }

    /// §7 against the wearable §9.1's case left unpaired; pairs it with this side again.
    static let pairingCase = ConformanceCase(
        "§7",
        "an unpaired wearable pairs: XX, Hellos without cursors, its commitment before the phone's nonce, the same code, both confirmations; then a KK session"
    ) { target in
        let confirm = try confirmationOrSkip(target)
        try await target.connect { script in
            let code = try await exchangeCodes(script, target)
            try await confirm(code)
            guard case .confirmed(let matched) = try await script.receivePairingStep("§7.2", "step 4, the wearable's answer to code \(code)")
            else { throw ConformanceFailure("§7.2", "expected the wearable's confirmation after its nonce") }
            guard matched else { throw ConformanceFailure("§7.2", "the wearable answered that the codes differ (code \(code) here)") }
            try await script.send(.confirmed(true))
            var finished = Relay_V1_Error()
            finished.code = .unspecified
            finished.message = "pairing finished"
            try await script.send(.error(finished))
        }
        // The wearable stores the phone's key when the phone's confirmation arrives, which
        // may be just after the close.
        try await awaitSessionOfferStatus(0, target, "§7.4", "after pairing")
        try await session(target) { script, _ in try await script.roundTrip("§7.4", "the first session after pairing") }
    }
}
