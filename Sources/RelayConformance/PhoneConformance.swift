import Crypto
import Foundation
import RelayWire

/// The cases that check a phone: this side plays the wearable (the responder, §2), listening
/// where the phone connects. The phone must hold `ConformanceTarget.localKey`'s public key as
/// its partner's, and come back after each connection (§8.9): every case takes its next one.
///
/// Each connection starts a new log epoch of the wearable's (a random `log_epoch`), and says
/// it has all of the phone's log, so the cases do not depend on one another.
public enum PhoneConformance {
    /// Every case, in an order that lets a phone that backs off after failed connections come
    /// back quickly: a case that ends before the session is up is followed by one that brings
    /// it up (a session resets the phone's wait, §8.9).
    public static let cases: [ConformanceCase] = [
        ConformanceCase("§4.1", "a paired phone offers session mode: RLAY, a range holding version 1, mode 2, reserved 0") { target in
            try await target.connect { script in
                _ = try await script.receiveOffer(mode: 2)
            }
        },
        ConformanceCase("§8.3", "the phone's first envelope is its Hello: seq 0, ack 0, role PHONE, an epoch that is not 0") { target in
            // `session` checks the Hello; a session that completes is the whole case.
            try await session(target) { _, _ in }
        },
        ConformanceCase("§4.5", "answered 'not paired' (status 3), the phone closes without a handshake message") { target in
            try await target.connect { script in
                _ = try await script.receiveOffer(mode: 2)
                try await script.sendFrame(Preambles.answer(version: 0, status: 3, lowest: 1, highest: 1))
                try await script.expectSilentClose("§4.5", "a refusal")
            }
        },
        ConformanceCase("§8.7", "a ping is answered with a pong of the same id") { target in
            try await session(target) { script, _ in try await script.roundTrip() }
        },
        ConformanceCase("§4.5", "an accepted answer naming a version the phone did not offer is closed without a handshake message") {
            target in
            try await target.connect { script in
                let offer = try await script.receiveOffer(mode: 2)
                let beyond = [UInt8](offer)[5] &+ 1
                try await script.sendFrame(Preambles.answer(version: beyond, status: 0, lowest: 1, highest: beyond))
                try await script.expectSilentClose("§4.5", "version \(beyond) was not offered")
            }
        },
        ConformanceCase(
            "§8.4", "an entry the phone appends comes with the next seq, and comes again on the next connection until acknowledged"
        ) { target in
            let appendEntry = try appendEntryOrSkip(target)
            let sent = try await session(target) { script, phone -> UInt64 in
                try await appendEntry()
                let entry = try await script.receive("§8.4", "the phone's new entry") { $0.seq > 0 }
                guard entry.seq == phone.logHead + 1, case .change = entry.body else {
                    throw ConformanceFailure(
                        "§8.4", "expected a change with seq \(phone.logHead + 1) (the phone's log head was \(phone.logHead)); got seq \(entry.seq)")
                }
                return entry.seq
            }
            // Not acknowledged: the next connection says it has everything before it.
            try await session(target, receivedThrough: sent - 1) { script, _ in
                let again = try await script.receive("§8.4", "entry \(sent) sent again") { $0.seq > 0 }
                guard again.seq == sent else {
                    throw ConformanceFailure("§8.4", "expected entry \(sent) again after a reconnect; got seq \(again.seq)")
                }
                script.ack = sent
                try await script.send(Relay_V1_Envelope.acknowledging(sent))
            }
        },
        ConformanceCase("§5.3", "a KK 2 that does not authenticate (not the partner) is closed without anything sent") { target in
            try await target.connect { script in
                _ = try await script.receiveOffer(mode: 2)
                try await script.sendFrame(Preambles.answer(version: 1, status: 0, lowest: 1, highest: 1))
                _ = try await script.receiveFrame("§5.2", "KK 1 (48 bytes)")
                try await script.sendFrame(Data((0..<48).map { _ in UInt8.random(in: 0...255) }))
                try await script.expectSilentClose("§5.3", "an unknown wearable")
            }
        },
        ConformanceCase("§10.4", "a response for a notification the phone no longer holds is acknowledged, and the session stays up") {
            target in
            try await session(target) { script, _ in
                var response = Relay_V1_Response()
                response.notificationKey = UInt64.random(in: 1_000_000_000...2_000_000_000)
                response.action = "default"
                var event = Relay_V1_WearableEvent()
                event.at = Int64(Date().timeIntervalSince1970)
                event.kind = .response(response)
                try await script.send(.event(event), seq: 1)
                _ = try await script.receive("§10.4", "an envelope acknowledging event 1") { $0.ack >= 1 }
                try await script.roundTrip("§10.4", "the pong that shows the session is still up")
            }
        },
        ConformanceCase("§8.3", "an envelope other than a Hello before the wearable's Hello is a protocol violation") { target in
            try await target.connect { script in
                try await script.acceptSession(wearableKey: target.localPrivateKey, phoneKey: target.peerPublicKey)
                try await script.send(.heartbeat(WireScript.ping(script.pingID())))
                try await script.expectError(.protocolViolation, "§8.3", "a ping before the wearable's Hello")
            }
        },
        ConformanceCase("§8.3", "a wearable's Hello naming the role PHONE is a protocol violation") { target in
            try await target.connect { script in
                try await script.acceptSession(wearableKey: target.localPrivateKey, phoneKey: target.peerPublicKey)
                let phone = try await script.receiveHello(role: .phone)
                var hello = Relay_V1_Hello()
                hello.role = .phone
                hello.logEpoch = WearableConformance.freshEpoch()
                hello.receivedEpoch = phone.logEpoch
                hello.receivedThrough = phone.logHead
                try await script.send(.hello(hello))
                try await script.expectError(.protocolViolation, "§8.2", "a Hello with the phone's own role")
            }
        },
        ConformanceCase("§8.2", "a change (an entry of the phone's log) from the wearable is a protocol violation") { target in
            try await session(target, head: 1) { script, _ in
                try await script.send(.change(.snapshotBegin(script.epoch)), seq: 1)
                try await script.expectError(.protocolViolation, "§8.2", "a change from the wearable")
            }
        },
        ConformanceCase("§8.2", "a Pairing message in a session connection is a protocol violation") { target in
            try await session(target) { script, _ in
                try await script.send(.confirmed(true))
                try await script.expectError(.protocolViolation, "§8.2", "a Pairing message in a session")
            }
        },
        ConformanceCase("§8.5", "a gap in the wearable's log is a protocol violation") { target in
            try await session(target, head: 2) { script, _ in
                try await script.send(.event(Relay_V1_WearableEvent()), seq: 2)
                try await script.expectError(.protocolViolation, "§8.5", "event 2 without event 1")
            }
        },
        ConformanceCase("§8.4", "an ack beyond the end of the phone's log is a protocol violation") { target in
            try await session(target) { script, phone in
                try await script.send(Relay_V1_Envelope.acknowledging(phone.logHead + 1_000))
                try await script.expectError(.protocolViolation, "§8.4", "an ack past the phone's log head \(phone.logHead)")
            }
        },
        ConformanceCase("§8.7", "a session the wearable falls silent on is closed 15 s into the silence, without an Error") { target in
            try await session(target) { script, _ in try await script.expectDeadLinkClose(sinceLastSent: .now) }
        },
    ] + logCases + TransportTampering.allCases.map { tampering in
        // Each ends an established session, which resets the phone's wait as well.
        ConformanceCase("§6", tampering.caseName) { target in
            try await session(target) { script, _ in try await tampering.check(script) }
        }
    } + [unpairingCase, commitmentMismatchCase, pairingCase]

    /// Takes the phone's next connection, its Hello, and answers with the wearable's (a new log
    /// epoch with `head` entries, having the phone's log through `receivedThrough`, all of it
    /// by default, and `capabilities`), then runs `body`.
    static func session<Result: Sendable>(
        _ target: ConformanceTarget, head: UInt64 = 0, receivedThrough: UInt64? = nil, capabilities: Relay_V1_Capabilities? = nil,
        _ body: (WireScript, Relay_V1_Hello) async throws -> Result
    ) async throws -> Result {
        try await target.connect { script in
            try await script.acceptSession(wearableKey: target.localPrivateKey, phoneKey: target.peerPublicKey)
            let phone = try await script.receiveHello(role: .phone)
            script.epoch = WearableConformance.freshEpoch()
            var hello = Relay_V1_Hello()
            hello.role = .wearable
            hello.agentVersion = "conformance"
            hello.deviceName = "relay-conformance"
            hello.logEpoch = script.epoch
            hello.logHead = head
            hello.receivedEpoch = phone.logEpoch
            hello.receivedThrough = receivedThrough ?? phone.logHead
            if let capabilities { hello.capabilities = capabilities }
            try await script.send(.hello(hello))
            script.ack = hello.receivedThrough
            return try await body(script, phone)
        }
    }
}

extension Relay_V1_Envelope {
    /// An acknowledgement-only envelope (§8.6).
    static func acknowledging(_ ack: UInt64) -> Self {
        var envelope = Relay_V1_Envelope()
        envelope.ack = ack
        return envelope
    }
}
