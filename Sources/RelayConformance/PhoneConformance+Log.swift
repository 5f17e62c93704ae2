import Crypto
import Foundation
import RelayWire

extension PhoneConformance {
    /// The cases about what the phone sends of its log: catch-up, the window, the wearable's
    /// text limits, attachments. Each needs the phone to append entries.
    static let logCases: [ConformanceCase] = [
        ConformanceCase("§8.3", "an entry appended while apart is counted in the phone's next Hello (log_head) and comes in that session") {
            target in
            let appendEntry = try appendEntryOrSkip(target)
            let before = try await session(target) { script, phone in
                try await script.roundTrip()
                return phone.logHead
            }
            try await appendEntry()
            try await session(target, receivedThrough: before) { script, phone in
                guard phone.logHead > before else {
                    throw ConformanceFailure(
                        "§8.3", "the Hello's log_head is \(phone.logHead): it does not count the entry appended since the last session (head \(before))")
                }
                for expected in (before + 1)...phone.logHead {
                    let entry = try await script.receive("§8.3", "entry \(expected), waiting since the last session") { $0.seq > 0 }
                    guard entry.seq == expected, case .change = entry.body else {
                        throw ConformanceFailure("§8.4", "expected the change with seq \(expected); got seq \(entry.seq)")
                    }
                    try await script.acknowledge(entry)
                }
            }
        },
        ConformanceCase("§8.4", "entries not acknowledged stop at the window (64 unless given), and go on once acknowledged") { target in
            let appendEntry = try appendEntryOrSkip(target)
            let window = UInt64(target.window)
            try await session(target) { script, phone in
                let appending = Task {
                    for _ in 0..<window + 4 { try await appendEntry() }
                }
                defer { appending.cancel() }
                var last = phone.logHead
                while last - phone.logHead < window {
                    let entry = try await script.receive("§8.4", "entry \(last + 1), within the window of \(window)") { $0.seq > 0 }
                    guard entry.seq == last + 1, case .change = entry.body else {
                        throw ConformanceFailure("§8.4", "expected the change with seq \(last + 1); got seq \(entry.seq)")
                    }
                    last = entry.seq
                }
                // Every append is in the phone's log now; none of it beyond the window may come.
                try await appending.value
                for envelope in try await script.envelopesBeforePong("§8.4", "the pong with the window full") where envelope.seq > 0 {
                    throw ConformanceFailure("§8.4", "entry \(envelope.seq) came with \(window) entries unacknowledged")
                }
                script.ack = last
                try await script.send(Relay_V1_Envelope.acknowledging(last))
                let next = try await script.receive("§8.4", "entry \(last + 1), once the window opened") { $0.seq > 0 }
                guard next.seq == last + 1 else {
                    throw ConformanceFailure("§8.4", "expected entry \(last + 1) once acknowledged through \(last); got seq \(next.seq)")
                }
            }
        },
        ConformanceCase("§10.2", "the title and body of an Upsert are cut to the wearable's max_title_bytes and max_body_bytes") { target in
            let appendEntry = try appendEntryOrSkip(target)
            var small = Relay_V1_Capabilities()
            small.maxTitleBytes = 4
            small.maxBodyBytes = 6
            try await session(target, capabilities: small) { script, _ in
                try await appendEntry()
                let upsert = try await nextUpsert(script, "§10.2", "the Upsert of the appended notification")
                let title = upsert.content.title.utf8.count
                let body = upsert.content.body.utf8.count
                guard title <= 4, body <= 6 else {
                    throw ConformanceFailure(
                        "§10.2", "with max_title_bytes 4 and max_body_bytes 6 the phone sent a title of \(title) and a body of \(body) bytes")
                }
            }
        },
        attachmentCase,
        lostStateCase,
    ]

    /// §8.3, step 4, with the wearable as the side that lost state.
    static let lostStateCase = ConformanceCase(
        "§8.3",
        "a wearable whose Hello lacks entries the phone had acknowledged and deleted gets PROTOCOL_VIOLATION; the phone's next Hello starts a new epoch with a snapshot"
    ) { target in
        let appendEntry = try appendEntryOrSkip(target)
        let (epoch, entry) = try await session(target) { script, phone -> (UInt64, UInt64) in
            try await appendEntry()
            let entry = try await script.receive("§8.4", "the phone's new entry") { $0.seq > 0 }
            try await script.acknowledge(entry)
            try await script.roundTrip("§8.6", "the pong after the acknowledgement")
            return (phone.logEpoch, entry.seq)
        }
        try await target.connect { script in
            try await script.acceptSession(wearableKey: target.localPrivateKey, phoneKey: target.peerPublicKey)
            let phone = try await script.receiveHello(role: .phone)
            guard phone.logEpoch == epoch else {
                throw ConformanceFailure("§8.3", "the phone's log left epoch \(epoch) before the wearable's Hello")
            }
            var lost = Relay_V1_Hello()
            lost.role = .wearable
            lost.logEpoch = WearableConformance.freshEpoch()
            lost.receivedEpoch = phone.logEpoch
            try await script.send(.hello(lost))
            try await script.expectError(.protocolViolation, "§8.3", "a Hello below entry \(entry), which the wearable acknowledged")
        }
        try await session(target, receivedThrough: 0) { script, phone in
            guard phone.logEpoch != epoch else {
                throw ConformanceFailure("§8.3", "the phone's log is still in epoch \(epoch); a wearable that lost its entries needs a new one")
            }
            var next: UInt64 = 1
            while next <= phone.logHead {
                let entry = try await script.receive("§13.4", "entry \(next) of the phone's new epoch") { $0.seq > 0 }
                guard entry.seq == next, case .change(let change) = entry.body else {
                    throw ConformanceFailure("§8.4", "expected the change with seq \(next); got seq \(entry.seq)")
                }
                if next == 1 {
                    guard case .snapshotBegin = change.kind else {
                        throw ConformanceFailure("§13.4", "the new epoch's first entry is not SnapshotBegin")
                    }
                }
                try await script.acknowledge(entry)
                next += 1
            }
        }
    }

    /// §8.8: the phone answers requests for an attachment it named, and nothing for a hash it
    /// does not hold.
    static let attachmentCase = ConformanceCase(
        "§8.8",
        "an attachment is sent as asked: chunks in order from the offset, seq 0, the size it was named with, bytes that hash to its name; an unknown hash gets no answer"
    ) { target in
        guard let appendAttachment = target.appendAttachment else {
            throw ConformanceSkip(reason: "no way to make the phone post a notification with an image (--append-attachment-command)")
        }
        var takesAttachments = Relay_V1_Capabilities()
        takesAttachments.features = ["attachments"]
        takesAttachments.maxAttachmentBytes = 16 << 20
        try await session(target, capabilities: takesAttachments) { script, _ in
            try await appendAttachment()
            var reference: Relay_V1_AttachmentRef?
            while reference == nil {
                reference = try await nextUpsert(script, "§8.8", "an Upsert naming an attachment").content.attachments.first
            }
            guard let reference else { return }
            var file = Data()
            // Asked for 16 KiB at a time, within the 64 KiB an answer may carry.
            repeat {
                let asked = min(16_384, Int(reference.size) - file.count)
                var request = Relay_V1_AttachmentRequest()
                request.sha256 = reference.sha256
                request.offset = UInt32(file.count)
                request.length = UInt32(asked)
                try await script.send(.attachmentRequest(request))
                let end = file.count + asked
                repeat {
                    let envelope = try await script.receive("§8.8", "the chunk from byte \(file.count)") {
                        if case .attachmentChunk = $0.body { true } else { false }
                    }
                    guard case .attachmentChunk(let chunk) = envelope.body else { continue }
                    guard envelope.seq == 0, chunk.sha256 == reference.sha256, chunk.totalSize == reference.size,
                        chunk.offset == file.count, !chunk.data.isEmpty || reference.size == 0
                    else {
                        throw ConformanceFailure(
                            "§8.8",
                            "expected a chunk (seq 0) of \(reference.sha256.hexString) from byte \(file.count) of \(reference.size); got seq \(envelope.seq), \(chunk.sha256.hexString) from \(chunk.offset) of \(chunk.totalSize), \(chunk.data.count) bytes"
                        )
                    }
                    file += chunk.data
                    guard file.count <= end else {
                        throw ConformanceFailure("§8.8", "the answer ran to byte \(file.count), past the \(asked) bytes asked for (to \(end))")
                    }
                } while file.count < end
            } while file.count < reference.size
            guard Data(SHA256.hash(data: file)) == reference.sha256 else {
                throw ConformanceFailure("§8.8", "the \(file.count) bytes received do not hash to the attachment's name")
            }
            // An unknown hash, then the known one again: answered in order, the first chunk
            // that comes must be the known file's.
            var unknown = Relay_V1_AttachmentRequest()
            unknown.sha256 = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
            try await script.send(.attachmentRequest(unknown))
            var again = Relay_V1_AttachmentRequest()
            again.sha256 = reference.sha256
            try await script.send(.attachmentRequest(again))
            let next = try await script.receive("§8.8", "the chunk of the known file asked for after an unknown hash") {
                if case .attachmentChunk = $0.body { true } else { false }
            }
            if case .attachmentChunk(let chunk) = next.body, chunk.sha256 != reference.sha256 {
                throw ConformanceFailure("§8.8", "a request for a hash the phone does not hold was answered with a chunk")
            }
        }
    }

    static func appendEntryOrSkip(_ target: ConformanceTarget) throws -> @Sendable () async throws -> Void {
        guard let appendEntry = target.appendEntry else {
            throw ConformanceSkip(reason: "no way to make the phone append an entry (--append-command)")
        }
        return appendEntry
    }

    /// The next Upsert of the phone's log, acknowledging every entry on the way.
    static func nextUpsert(_ script: WireScript, _ section: String, _ what: String) async throws -> Relay_V1_Upsert {
        while true {
            let entry = try await script.receive(section, what) { $0.seq > 0 }
            try await script.acknowledge(entry)
            if case .change(let change) = entry.body, case .upsert(let upsert) = change.kind { return upsert }
        }
    }
}
