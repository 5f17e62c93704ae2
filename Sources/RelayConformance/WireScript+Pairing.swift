public import Crypto
public import Foundation
import RelayNoise
public import RelayWire

/// §7's values, written out from the document: the wearable's commitment and the 6-digit code.
public enum PairingValues {
    /// `SHA-256("Relay pairing commitment" ‖ h ‖ Nw)` (§7.1).
    public static func commitment(handshakeHash h: Data, wearableNonce: Data) -> Data {
        Data(SHA256.hash(data: Data("Relay pairing commitment".utf8) + h + wearableNonce))
    }

    /// The first 8 bytes of `SHA-256("Relay pairing code" ‖ h ‖ Np ‖ Nw)`, big-endian, mod
    /// 1 000 000, as 6 digits (§7.1).
    public static func code(handshakeHash h: Data, phoneNonce: Data, wearableNonce: Data) -> String {
        let digest = Array(SHA256.hash(data: Data("Relay pairing code".utf8) + h + phoneNonce + wearableNonce))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let digits = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// A fresh 32-byte nonce.
    static func nonce() -> Data { Data((0..<32).map { _ in UInt8.random(in: 0...255) }) }
}

extension WireScript {
    /// §4 and §5.1 as the phone: offers pair mode, checks the answer, and runs `Noise_XX` as
    /// the initiator. The wearable's static key must be `wearableKey` (any key when `nil`, as a
    /// stranger sees it). Returns `h`, the final handshake hash.
    public func openPairing(phoneKey: Curve25519.KeyAgreement.PrivateKey, wearableKey: Curve25519.KeyAgreement.PublicKey?)
        async throws -> Data
    {
        let offer = Preambles.offer(lowest: 1, highest: 1, mode: 1)
        try await sendFrame(offer)
        let answer = try await receiveFrame("§4.4", "the preamble answer")
        guard answer == Preambles.answer(version: 1, status: 0, lowest: 1, highest: 1) else {
            throw ConformanceFailure(
                "§4.4", "expected an unpaired wearable to accept pair mode (524c4159 01 00 01 01); got \(answer.hexString)")
        }
        var handshake = try HandshakeState(
            pattern: .xx, role: .initiator, prologue: Preambles.prologue(offer: offer, answer: answer), localStaticKey: phoneKey)
        try await sendFrame(try handshake.writeMessage())
        let second = try await receiveFrame("§5.1", "XX 2 (96 bytes)")
        do {
            _ = try handshake.readMessage(second)
        } catch {
            throw ConformanceFailure("§5.1", "XX 2 did not decrypt: \(error)")
        }
        try await sendFrame(try handshake.writeMessage())
        return try finishPairingHandshake(handshake, expecting: wearableKey, "the wearable's")
    }

    /// §4 and §5.1 as the wearable: takes the phone's pair-mode offer (`offer`, already
    /// received), accepts version 1, and runs `Noise_XX` as the responder. The phone's static
    /// key must be `phoneKey`. Returns `h`, the final handshake hash.
    public func acceptPairing(
        offer: Data, wearableKey: Curve25519.KeyAgreement.PrivateKey, phoneKey: Curve25519.KeyAgreement.PublicKey
    ) async throws -> Data {
        let answer = Preambles.answer(version: 1, status: 0, lowest: 1, highest: 1)
        try await sendFrame(answer)
        var handshake = try HandshakeState(
            pattern: .xx, role: .responder, prologue: Preambles.prologue(offer: offer, answer: answer), localStaticKey: wearableKey)
        do {
            _ = try handshake.readMessage(try await receiveFrame("§5.1", "XX 1 (32 bytes)"))
            try await sendFrame(try handshake.writeMessage())
            _ = try handshake.readMessage(try await receiveFrame("§5.1", "XX 3 (64 bytes)"))
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure("§5.1", "the phone's XX message did not decrypt: \(error)")
        }
        return try finishPairingHandshake(handshake, expecting: phoneKey, "the phone's")
    }

    private func finishPairingHandshake(
        _ handshake: consuming HandshakeState, expecting key: Curve25519.KeyAgreement.PublicKey?, _ whose: String
    ) throws -> Data {
        if let key, handshake.remoteStaticKey?.rawRepresentation != key.rawRepresentation {
            throw ConformanceFailure(
                "§5.1", "\(whose) static key in the handshake is \(handshake.remoteStaticKey?.rawRepresentation.hexString ?? "missing"), not the one given")
        }
        let h = handshake.handshakeHash
        begin(try handshake.finish())
        return h
    }

    /// §7.4: a pairing connection's Hello, `role`, `agent_version` and `device_name` only.
    public static func pairingHello(role: Relay_V1_Role) -> Relay_V1_Hello {
        var hello = Relay_V1_Hello()
        hello.role = role
        hello.agentVersion = "conformance"
        hello.deviceName = "relay-conformance"
        return hello
    }

    /// §7.4: the implementation's first envelope on a pairing connection is its Hello with
    /// `role`, epochs, cursors and head 0, and no capabilities.
    public func receivePairingHello(role: Relay_V1_Role) async throws -> Relay_V1_Hello {
        let first = try await receivePairingEnvelope("§8.3", "the implementation's Hello")
        guard case .hello(let hello) = first.body else {
            throw ConformanceFailure("§8.3", "the first envelope is not a Hello: \(first.body.map { "\($0)" } ?? "no body")")
        }
        guard hello.role == role else { throw ConformanceFailure("§8.3", "the Hello's role is \(hello.role), not \(role)") }
        guard hello.logEpoch == 0, hello.receivedEpoch == 0, hello.receivedThrough == 0, hello.logHead == 0, !hello.hasCapabilities
        else {
            throw ConformanceFailure(
                "§7.4",
                "a pairing Hello carries role, version and name only; got epoch \(hello.logEpoch), received \(hello.receivedThrough) of epoch \(hello.receivedEpoch), head \(hello.logHead), capabilities \(hello.hasCapabilities ? "present" : "absent")"
            )
        }
        return hello
    }

    /// The next pairing step; anything else (pings aside) fails the case, as does a `seq` or
    /// `ack` that is not 0 (§7.4).
    public func receivePairingStep(_ section: String, _ what: String) async throws -> Relay_V1_Pairing.OneOf_Step {
        let envelope = try await receivePairingEnvelope(section, what)
        if case .error(let error) = envelope.body {
            throw ConformanceFailure(section, "expected \(what); got Error{\(error.code), \"\(error.message)\"}")
        }
        guard case .pairing(let pairing) = envelope.body, let step = pairing.step else {
            throw ConformanceFailure(section, "expected \(what); got \(envelope.body.map { "\($0)" } ?? "an envelope without a body")")
        }
        return step
    }

    /// Sends a pairing step (outside the log, `ack` 0).
    public func send(_ step: Relay_V1_Pairing.OneOf_Step) async throws {
        var pairing = Relay_V1_Pairing()
        pairing.step = step
        try await send(.pairing(pairing))
    }

    private func receivePairingEnvelope(_ section: String, _ what: String) async throws -> Relay_V1_Envelope {
        let envelope = try await receive(section, what)
        guard envelope.seq == 0, envelope.ack == 0 else {
            throw ConformanceFailure("§7.4", "an envelope of a pairing connection carries seq \(envelope.seq), ack \(envelope.ack); both must be 0")
        }
        return envelope
    }
}
