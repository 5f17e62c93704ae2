import Crypto
import Foundation
import RelayWire

extension WearableConformance {
    /// The cases about what the wearable does with the phone's log: catch-up, a burst of
    /// entries, attachments.
    static let replicaCases: [ConformanceCase] = [
        ConformanceCase(
            "§8.3",
            "an alerting Upsert at or below the phone's log_head waited while apart: reported Alerted{alerted: false}; one after it is live and reported too"
        ) { target in
            try await session(target, head: 3) { script, wearable in
                let waited = UInt64.random(in: 1_000_000...1_000_000_000)
                let live = waited + 1
                try await script.send(.change(.snapshotBegin(script.epoch)), seq: 1)
                try await script.send(.change(.snapshotEnd(script.epoch)), seq: 2)
                // A day old: older than any alert window a user would set (§8.3).
                try await script.send(.change(.conformanceUpsert(key: waited, mayAlert: true, age: 86_400)), seq: 3)
                try await script.send(.change(.conformanceUpsert(key: live, mayAlert: true)), seq: 4)
                var reports: [UInt64: Relay_V1_Alerted] = [:]
                var nextEvent = wearable.logHead + 1
                while reports[waited] == nil || reports[live] == nil {
                    let envelope = try await script.receive("§13.1", "Alerted reports for notifications \(waited) and \(live)") {
                        if case .event = $0.body { true } else { false }
                    }
                    guard envelope.seq == nextEvent else {
                        throw ConformanceFailure("§8.4", "the wearable's event came with seq \(envelope.seq), not the next one, \(nextEvent)")
                    }
                    nextEvent += 1
                    try await script.acknowledge(envelope)
                    if case .event(let event) = envelope.body, case .alerted(let alerted) = event.kind {
                        reports[alerted.notificationKey] = alerted
                    }
                }
                if let report = reports[waited], report.alerted {
                    throw ConformanceFailure(
                        "§8.3",
                        "notification \(waited), entry 3 under a Hello with log_head 3 and a day old, was reported alerted: it waited while apart"
                    )
                }
            }
        },
        ConformanceCase("§8.5", "100 entries sent at once, more than a sender's window, are all applied and acknowledged") { target in
            try await session(target, head: 102) { script, _ in
                let first = UInt64.random(in: 1_000_000...1_000_000_000)
                try await script.send(.change(.snapshotBegin(script.epoch)), seq: 1)
                for index in 0..<100 {
                    try await script.send(.change(.conformanceUpsert(key: first + UInt64(index))), seq: UInt64(2 + index))
                }
                try await script.send(.change(.snapshotEnd(script.epoch)), seq: 102)
                let acknowledgement = try await script.receive("§8.5", "an envelope acknowledging entry 102") { $0.ack >= 102 }
                guard acknowledgement.ack == 102 else {
                    throw ConformanceFailure("§8.4", "the acknowledgement went to \(acknowledgement.ack), past the phone's last entry 102")
                }
            }
        },
        attachmentCase,
        lostStateCase,
    ]

    /// §8.3, step 4, with the phone as the side that lost state.
    static let lostStateCase = ConformanceCase(
        "§8.3",
        "a phone whose Hello lacks events the wearable had acknowledged and deleted gets PROTOCOL_VIOLATION; the wearable's next Hello starts a new epoch"
    ) { target in
        // One event of the wearable's, acknowledged: the report of an alerting Upsert.
        let (epoch, event) = try await session(target, head: 3) { script, wearable -> (UInt64, UInt64) in
            try await script.send(.change(.snapshotBegin(script.epoch)), seq: 1)
            try await script.send(.change(.snapshotEnd(script.epoch)), seq: 2)
            try await script.send(.change(.conformanceUpsert(key: UInt64.random(in: 1_000_000...1_000_000_000), mayAlert: true)), seq: 3)
            let report = try await script.receive("§13.1", "the wearable's Alerted report") {
                if case .event = $0.body { true } else { false }
            }
            try await script.acknowledge(report)
            try await script.roundTrip("§8.6", "the pong after the acknowledgement")
            return (wearable.logEpoch, report.seq)
        }
        try await target.connect { script in
            try await script.openSession(phoneKey: target.localPrivateKey, wearableKey: target.peerPublicKey)
            let wearable = try await script.receiveHello(role: .wearable)
            guard wearable.logEpoch == epoch, wearable.logHead >= event else {
                throw ConformanceFailure("§8.3", "the wearable's Hello moved on from epoch \(epoch) through \(event) before the phone's Hello")
            }
            var lost = phoneHello(answering: wearable, epoch: freshEpoch())
            lost.receivedThrough = 0
            try await script.send(.hello(lost))
            try await script.expectError(.protocolViolation, "§8.3", "a Hello below event \(event), which the phone acknowledged")
        }
        // The wearable may start its new epoch just after the close: Hellos are read until the
        // patience runs out.
        let deadline = ContinuousClock.now + target.patience
        while try await target.connect({ script in
            try await script.openSession(phoneKey: target.localPrivateKey, wearableKey: target.peerPublicKey)
            return try await script.receiveHello(role: .wearable).logEpoch == epoch
        }) {
            guard ContinuousClock.now < deadline else {
                throw ConformanceFailure("§8.3", "the wearable's log is still in epoch \(epoch); a phone that lost its events needs a new one")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// §8.8: the wearable fetches an attachment an Upsert names, and keeps it.
    static let attachmentCase = ConformanceCase(
        "§8.8",
        "an Upsert naming an attachment: asked for with seq 0 within the file, received, and not asked for again, in this session or the next"
    ) { target in
        let file = Data((0..<10_000).map { _ in UInt8.random(in: 0...255) })
        var reference = Relay_V1_AttachmentRef()
        reference.identifier = "conformance"
        reference.type = "application/octet-stream"
        reference.sha256 = Data(SHA256.hash(data: file))
        reference.size = UInt32(file.count)
        let key = UInt64.random(in: 1_000_000...1_000_000_000)
        try await session(target, head: 3) { script, wearable in
            guard wearable.capabilities.features.contains("attachments"), wearable.capabilities.maxAttachmentBytes >= file.count else {
                throw ConformanceSkip(reason: "the wearable does not take attachments of \(file.count) bytes (§10.2: features, max_attachment_bytes)")
            }
            try await script.send(.change(.snapshotBegin(script.epoch)), seq: 1)
            try await script.send(.change(.conformanceUpsert(key: key, attachments: [reference])), seq: 2)
            try await script.send(.change(.snapshotEnd(script.epoch)), seq: 3)
            var served = 0
            while served < file.count {
                let envelope = try await script.receive("§8.8", "a request for the attachment from byte \(served)") {
                    if case .attachmentRequest = $0.body { true } else { false }
                }
                guard case .attachmentRequest(let request) = envelope.body else { continue }
                try checkRequest(request, in: envelope, for: reference)
                let end = request.length == 0 ? file.count : min(file.count, Int(request.offset) + Int(request.length))
                for start in stride(from: Int(request.offset), to: end, by: 4096) {
                    var chunk = Relay_V1_AttachmentChunk()
                    chunk.sha256 = reference.sha256
                    chunk.offset = UInt32(start)
                    chunk.totalSize = reference.size
                    chunk.data = file.subdata(in: start..<min(end, start + 4096))
                    try await script.send(.attachmentChunk(chunk))
                }
                served = max(served, end)
            }
            // Held now: a second notification naming it is not answered with a request, while
            // a third, naming another file, is (a request for the first would come before it).
            let other = otherFile()
            try await script.send(.change(.conformanceUpsert(key: key + 1, attachments: [reference])), seq: 4)
            try await script.send(.change(.conformanceUpsert(key: key + 2, attachments: [other])), seq: 5)
            try await expectRequest(for: other, script, notFor: reference, "after the whole file was sent")
        }
        // The next session: at its start the wearable asks for what its replica names and it
        // lacks; the replica still names the file, which it holds.
        try await session(target, head: 2) { script, _ in
            let last = otherFile()
            try await script.send(.change(.snapshotBegin(script.epoch)), seq: 1)
            try await script.send(.change(.conformanceUpsert(key: key + 3, attachments: [last])), seq: 2)
            try await expectRequest(for: last, script, notFor: reference, "in the session after it was received")
        }
    }

    /// A reference to a file of 100 random bytes, which the suite never serves.
    private static func otherFile() -> Relay_V1_AttachmentRef {
        var reference = Relay_V1_AttachmentRef()
        reference.identifier = "conformance-other"
        reference.type = "application/octet-stream"
        reference.sha256 = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        reference.size = 100
        return reference
    }

    /// Waits for a request for `wanted`; one for `held` before it fails the case.
    private static func expectRequest(
        for wanted: Relay_V1_AttachmentRef, _ script: WireScript, notFor held: Relay_V1_AttachmentRef, _ when: String
    ) async throws {
        while true {
            let request = try await script.receive("§8.8", "a request for the file the last Upsert named") {
                if case .attachmentRequest = $0.body { true } else { false }
            }
            guard case .attachmentRequest(let asked) = request.body else { continue }
            if asked.sha256 == held.sha256 {
                throw ConformanceFailure(
                    "§8.8", "the wearable asked for the attachment again \(when) (offset \(asked.offset)): it did not keep what it received")
            }
            if asked.sha256 == wanted.sha256 { return }
        }
    }

    private static func checkRequest(
        _ request: Relay_V1_AttachmentRequest, in envelope: Relay_V1_Envelope, for reference: Relay_V1_AttachmentRef
    ) throws {
        guard envelope.seq == 0 else {
            throw ConformanceFailure("§8.8", "an AttachmentRequest came with seq \(envelope.seq); bulk messages are outside the log (seq 0)")
        }
        guard request.sha256 == reference.sha256 else {
            throw ConformanceFailure("§8.8", "the wearable asked for \(request.sha256.hexString), a hash no entry named")
        }
        guard request.offset < reference.size else {
            throw ConformanceFailure("§8.8", "the wearable asked from offset \(request.offset), past the end of a file of \(reference.size) bytes")
        }
    }
}
