import Crypto
import Foundation
import RelayNoise
import RelayWire

/// The cases that check a wearable: this side plays the phone (the initiator, §2). The
/// wearable must hold `ConformanceTarget.localKey`'s public key as its partner's.
///
/// Each connection starts a new log epoch of the phone's (a random `log_epoch`), so the cases
/// do not depend on one another or on what the wearable held before (§8.3, step 2).
public enum WearableConformance {
    /// Every case, in the document's order.
    public static let cases: [ConformanceCase] = [
        ConformanceCase("§3", "a frame header announcing more than 16384 bytes closes the connection") { target in
            try await target.connect { script in
                try await script.sendRaw(Data([0xFF, 0xFF]))
                _ = try await script.expectClose("§3", "an oversized frame header")
            }
        },
        ConformanceCase("§3", "a frame header announcing 0 bytes closes the connection") { target in
            try await target.connect { script in
                try await script.sendRaw(Data([0x00, 0x00]))
                _ = try await script.expectClose("§3", "an empty frame")
            }
        },
        ConformanceCase("§4.3", "a first frame that is not RLAY is closed without an answer") { target in
            try await target.connect { script in
                try await script.sendFrame(Data("GET / HT".utf8))
                try await script.expectSilentClose("§4.3", "not a Relay peer")
            }
        },
        ConformanceCase("§4.3", "an offer whose reserved byte is not 0 is closed without an answer") { target in
            try await target.connect { script in
                try await script.sendFrame(Preambles.offer(lowest: 1, highest: 1, mode: 2, reserved: 1))
                try await script.expectSilentClose("§4.3", "a malformed offer")
            }
        },
        ConformanceCase("§4.4", "an offer of versions 2–3 gets the answer version 0, status 1 (unsupported), then the close") { target in
            try await target.connect { script in
                try await script.sendFrame(Preambles.offer(lowest: 2, highest: 3, mode: 2))
                try await expectRefusal(script, status: 1, "no version in common")
            }
        },
        ConformanceCase("§4.4", "a paired wearable answers a pair-mode offer with status 2 (not pairable), then closes") { target in
            try await target.connect { script in
                try await script.sendFrame(Preambles.offer(lowest: 1, highest: 1, mode: 1))
                try await expectRefusal(script, status: 2, "pair mode while paired")
            }
        },
        ConformanceCase("§5.3", "a phone whose key is not the partner's fails at KK 1: closed without anything sent") { target in
            try await target.connect { script in
                let offer = Preambles.offer(lowest: 1, highest: 1, mode: 2)
                try await script.sendFrame(offer)
                let answer = try await script.receiveFrame("§4.4", "the preamble answer")
                var stranger = try HandshakeState(
                    pattern: .kk, role: .initiator, prologue: Preambles.prologue(offer: offer, answer: answer),
                    localStaticKey: Curve25519.KeyAgreement.PrivateKey(), remoteStaticKey: target.peerPublicKey)
                try await script.sendFrame(try stranger.writeMessage())
                try await script.expectSilentClose("§5.3", "an unknown phone")
            }
        },
        ConformanceCase("§8.3", "the wearable's first envelope is its Hello: seq 0, ack 0, role WEARABLE, an epoch that is not 0") {
            target in
            // `session` checks the Hello; a session that completes is the whole case.
            try await session(target) { _, _ in }
        },
        ConformanceCase("§8.3", "an envelope other than a Hello before the phone's Hello is a protocol violation") { target in
            try await target.connect { script in
                try await script.openSession(phoneKey: target.localPrivateKey, wearableKey: target.peerPublicKey)
                try await script.send(.heartbeat(WireScript.ping(script.pingID())))
                try await script.expectError(.protocolViolation, "§8.3", "a ping before the phone's Hello")
            }
        },
        ConformanceCase("§8.3", "a second Hello is a protocol violation") { target in
            try await session(target) { script, wearable in
                try await script.send(.hello(phoneHello(answering: wearable, epoch: freshEpoch())))
                try await script.expectError(.protocolViolation, "§8.3", "a second Hello")
            }
        },
        ConformanceCase("§8.3", "a phone's Hello naming the role WEARABLE is a protocol violation") { target in
            try await target.connect { script in
                try await script.openSession(phoneKey: target.localPrivateKey, wearableKey: target.peerPublicKey)
                var hello = phoneHello(answering: try await script.receiveHello(role: .wearable), epoch: freshEpoch())
                hello.role = .wearable
                try await script.send(.hello(hello))
                try await script.expectError(.protocolViolation, "§8.2", "a Hello with the wearable's own role")
            }
        },
        ConformanceCase("§8.2", "an event (an entry of the wearable's log) from the phone is a protocol violation") { target in
            try await session(target) { script, _ in
                try await script.send(.event(Relay_V1_WearableEvent()), seq: 1)
                try await script.expectError(.protocolViolation, "§8.2", "an event from the phone")
            }
        },
        ConformanceCase("§8.2", "a Pairing message in a session connection is a protocol violation") { target in
            try await session(target) { script, _ in
                try await script.send(.confirmed(true))
                try await script.expectError(.protocolViolation, "§8.2", "a Pairing message in a session")
            }
        },
        ConformanceCase("§8.7", "a ping is answered with a pong of the same id") { target in
            try await session(target) { script, _ in try await script.roundTrip() }
        },
        ConformanceCase("§8.5", "a new epoch's snapshot is applied and acknowledged; a duplicate entry is acknowledged again") { target in
            try await session(target, head: 3) { script, _ in
                let epoch = script.epoch
                try await script.send(.change(.snapshotBegin(epoch)), seq: 1)
                try await script.send(.change(.conformanceUpsert(key: 1)), seq: 2)
                try await script.send(.change(.snapshotEnd(epoch)), seq: 3)
                _ = try await script.receive("§8.5", "an envelope acknowledging entry 3") { $0.ack >= 3 }
                try await script.send(.change(.snapshotEnd(epoch)), seq: 3)
                let again = try await script.receive("§8.6", "an acknowledgement of the duplicate entry 3") { $0.ack >= 3 }
                guard again.ack == 3 else {
                    throw ConformanceFailure("§8.4", "the acknowledgement went to \(again.ack), past the phone's last entry 3")
                }
            }
        },
        ConformanceCase("§8.5", "a change with seq 0 is a protocol violation") { target in
            try await session(target) { script, _ in
                try await script.send(.change(.snapshotBegin(script.epoch)), seq: 0)
                try await script.expectError(.protocolViolation, "§8.5", "a change with seq 0")
            }
        },
        ConformanceCase("§8.5", "a gap in the phone's log is a protocol violation") { target in
            try await session(target, head: 2) { script, _ in
                try await script.send(.change(.snapshotEnd(script.epoch)), seq: 2)
                try await script.expectError(.protocolViolation, "§8.5", "entry 2 without entry 1")
            }
        },
        ConformanceCase("§8.4", "an ack beyond the end of the wearable's log is a protocol violation") { target in
            try await session(target) { script, wearable in
                try await script.send(Relay_V1_Envelope.acknowledging(wearable.logHead + 1_000))
                try await script.expectError(.protocolViolation, "§8.4", "an ack past the wearable's log head \(wearable.logHead)")
            }
        },
        ConformanceCase("§8.1", "decrypted bytes that are not an Envelope are a protocol violation") { target in
            try await session(target) { script, _ in
                // Field 1 as a length-delimited field: wire type 2 where uint64 is declared,
                // and a length running past the end.
                try await script.sendEncrypted(Data([0x0A, 0x7F]))
                try await script.expectError(.protocolViolation, "§9", "bytes that are not an Envelope")
            }
        },
        ConformanceCase("§8.9", "a connection still in its handshake when an older one's session begins is not closed by it, and replaces it") {
            target in
            guard target.allowsOverlappingConnections else {
                throw ConformanceSkip(reason: "RFCOMM carries one connection per channel between two devices, so two cannot overlap")
            }
            try await target.connect { older in
                try await older.openSession(phoneKey: target.localPrivateKey, wearableKey: target.peerPublicKey)
                let first = try await older.receiveHello(role: .wearable)
                try await target.connect { newer in
                    // The newer connection is past its handshake, waiting, when the older
                    // connection's session begins (a phone's reconnect overtaking a slow one).
                    try await newer.openSession(phoneKey: target.localPrivateKey, wearableKey: target.peerPublicKey)
                    try await answer(first, on: older)
                    try await older.roundTrip("§8.9", "the older connection's session")
                    let second = try await newer.receiveHello(role: .wearable)
                    try await answer(second, on: newer)
                    try await newer.roundTrip("§8.9", "the newer connection's session, begun after the older one's")
                    _ = try await older.expectClose("§8.9", "the older connection, once the newer one's session began")
                }
            }
        },
        ConformanceCase("§8.7", "a session the phone falls silent on is closed 15 s into the silence, without an Error") { target in
            try await session(target) { script, _ in try await script.expectDeadLinkClose(sinceLastSent: .now) }
        },
    ] + replicaCases + TransportTampering.allCases.map { tampering in
        ConformanceCase("§6", tampering.caseName) { target in
            try await session(target) { script, _ in try await tampering.check(script) }
        }
    } + [
        // Last: the wearable is no longer paired with the suite afterwards.
        ConformanceCase("§9.1", "an Error UNPAIRED from the partner makes the wearable forget it: a session offer is then answered 'not paired'") {
            target in
            guard target.mayUnpair else { throw ConformanceSkip(reason: "it unpairs the wearable; allow it with --may-unpair") }
            try await session(target) { script, _ in
                var unpaired = Relay_V1_Error()
                unpaired.code = .unpaired
                unpaired.message = "relay-conformance unpaired this wearable"
                try await script.send(.error(unpaired))
                let frames = try await script.expectClose("§9", "after the phone's Error")
                if let error = script.errorEnvelope(in: frames) {
                    throw ConformanceFailure("§9", "the wearable answered an Error with one of its own: \(error.message)")
                }
            }
            // The wearable may forget just after it closes: offers are tried until the patience runs out.
            try await awaitSessionOfferStatus(3, target, "§9.1", "after unpairing")
        },
        rejectedPairingCase,
        pairingCase,
    ]

    /// Offers session mode until the wearable answers with `status` (3: not paired, 0:
    /// accepted), for a change the wearable makes just after a connection closed; fails once
    /// the patience has run out.
    static func awaitSessionOfferStatus(_ status: UInt8, _ target: ConformanceTarget, _ section: String, _ when: String) async throws {
        let deadline = ContinuousClock.now + target.patience
        while true {
            let answered = try await target.connect { script -> UInt8 in
                try await script.sendFrame(Preambles.offer(lowest: 1, highest: 1, mode: 2))
                let answer = try await script.receiveFrame("§4.4", "the preamble answer")
                guard answer.count == 8, answer.prefix(4) == Preambles.magic else {
                    throw ConformanceFailure("§4.4", "the preamble answer is not RLAY and 4 bytes: \(answer.hexString)")
                }
                return answer[answer.startIndex + 5]
            }
            if answered == status { return }
            guard ContinuousClock.now < deadline else {
                throw ConformanceFailure(section, "a session offer \(when) was answered with status \(answered), not \(status)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Opens a session, takes the wearable's Hello and answers with the phone's (a new log
    /// epoch with `head` entries, having everything of the wearable's log), then runs `body`.
    static func session<Result: Sendable>(
        _ target: ConformanceTarget, head: UInt64 = 0, _ body: (WireScript, Relay_V1_Hello) async throws -> Result
    ) async throws -> Result {
        try await target.connect { script in
            try await script.openSession(phoneKey: target.localPrivateKey, wearableKey: target.peerPublicKey)
            let wearable = try await script.receiveHello(role: .wearable)
            try await answer(wearable, on: script, head: head)
            return try await body(script, wearable)
        }
    }

    /// Answers the wearable's Hello on `script` with the phone's: a new log epoch with `head`
    /// entries, having everything of the wearable's log.
    static func answer(_ wearable: Relay_V1_Hello, on script: WireScript, head: UInt64 = 0) async throws {
        script.epoch = freshEpoch()
        var hello = phoneHello(answering: wearable, epoch: script.epoch)
        hello.logHead = head
        try await script.send(.hello(hello))
        script.ack = wearable.logHead
    }

    /// A phone's Hello that has all of the wearable's log (its head, in its epoch).
    static func phoneHello(answering wearable: Relay_V1_Hello, epoch: UInt64) -> Relay_V1_Hello {
        var hello = Relay_V1_Hello()
        hello.role = .phone
        hello.agentVersion = "conformance"
        hello.deviceName = "relay-conformance"
        hello.logEpoch = epoch
        hello.receivedEpoch = wearable.logEpoch
        hello.receivedThrough = wearable.logHead
        return hello
    }

    static func freshEpoch() -> UInt64 { UInt64.random(in: 1...UInt64(Int64.max)) }

    /// The answer must be the refusal with `status`, followed by the close (§4.4).
    static func expectRefusal(_ script: WireScript, status: UInt8, _ why: String) async throws {
        let answer = try await script.receiveFrame("§4.4", "the refusal answer")
        guard answer.count == 8, answer.prefix(4) == Preambles.magic, answer[answer.startIndex + 4] == 0,
            answer[answer.startIndex + 5] == status
        else {
            throw ConformanceFailure("§4.4", "expected an answer of version 0, status \(status) (\(why)); got \(answer.hexString)")
        }
        let after = try await script.expectClose("§4.4", "after the refusal")
        guard after.isEmpty else { throw ConformanceFailure("§4.4", "\(after.count) frame(s) came after the refusal") }
    }
}

extension Relay_V1_Change.OneOf_Kind {
    static func snapshotBegin(_ epoch: UInt64) -> Self {
        var begin = Relay_V1_SnapshotBegin()
        begin.epoch = epoch
        return .snapshotBegin(begin)
    }

    static func snapshotEnd(_ epoch: UInt64) -> Self {
        var end = Relay_V1_SnapshotEnd()
        end.epoch = epoch
        return .snapshotEnd(end)
    }

    /// A notification `key` at revision 1, delivered `age` seconds ago.
    static func conformanceUpsert(
        key: UInt64, mayAlert: Bool = false, age: Int64 = 0, attachments: [Relay_V1_AttachmentRef] = []
    ) -> Self {
        var upsert = Relay_V1_Upsert()
        upsert.key = key
        upsert.revision = 1
        upsert.content.title = "Conformance"
        upsert.content.body = "Sent by relay-conformance"
        upsert.content.attachments = attachments
        upsert.mayAlert = mayAlert
        upsert.deliveredAt = Int64(Date().timeIntervalSince1970) - age
        return .upsert(upsert)
    }
}

extension Relay_V1_Envelope.OneOf_Body {
    static func change(_ kind: Relay_V1_Change.OneOf_Kind) -> Self {
        var change = Relay_V1_Change()
        change.kind = kind
        return .change(change)
    }
}
