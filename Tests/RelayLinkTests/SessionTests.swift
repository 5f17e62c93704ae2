import Foundation
import RelayLink
import RelayTestSupport
import RelayCore
import RelayWire
import Testing

@Suite struct SessionTests {
    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()
    let start = ContinuousClock.now

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func everyEntryArrivesOnceAndInOrderAcrossRandomDrops(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        var phone = DurableSide(epoch: 11)
        var wearable = DurableSide(epoch: 22)
        let count: UInt64 = 300
        var phoneSent: UInt64 = 0
        var wearableSent: UInt64 = 0
        var drops = 0
        var rounds = 0
        while phone.received.count < Int(count) || wearable.received.count < Int(count) {
            rounds += 1
            #expect(rounds < 200, "no progress; seed \(seed)")
            if rounds >= 200 { return }
            var pair = try connect(
                phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
            var toWearable = perform(pair.phone.start(), on: &pair.phone, state: &phone).frames
            var toPhone = perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames
            // The connection lives for a random number of steps, then drops with frames in flight.
            let lifetime = Int.random(in: 5...120, using: &random)
            for _ in 0..<lifetime {
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where phoneSent < count:
                    phoneSent += 1
                    phone.pending.append(.init(seq: phone.nextSeq, body: upsert(phoneSent)))
                    toWearable += perform(pair.phone.enqueue(upsert(phoneSent)), on: &pair.phone, state: &phone).frames
                case 1 where wearableSent < count:
                    wearableSent += 1
                    wearable.pending.append(.init(seq: wearable.nextSeq, body: fired(wearableSent)))
                    toPhone += perform(pair.wearable.enqueue(fired(wearableSent)), on: &pair.wearable, state: &wearable).frames
                case 2 where !toWearable.isEmpty:
                    let batch = toWearable.prefix(Int.random(in: 1...8, using: &random))
                    toWearable.removeFirst(batch.count)
                    for frame in batch {
                        let result = perform(pair.wearable.receive(frame, at: start), on: &pair.wearable, state: &wearable)
                        #expect(result.failures.isEmpty, "seed \(seed)")
                        toPhone += result.frames
                    }
                    toPhone += perform(pair.wearable.flushAcknowledgement(), on: &pair.wearable, state: &wearable).frames
                case 3 where !toPhone.isEmpty:
                    let batch = toPhone.prefix(Int.random(in: 1...8, using: &random))
                    toPhone.removeFirst(batch.count)
                    for frame in batch {
                        let result = perform(pair.phone.receive(frame, at: start), on: &pair.phone, state: &phone)
                        #expect(result.failures.isEmpty, "seed \(seed)")
                        toWearable += result.frames
                    }
                    toWearable += perform(pair.phone.flushAcknowledgement(), on: &pair.phone, state: &phone).frames
                default:
                    break
                }
            }
            drops += 1
        }
        #expect(wearable.received == Array(1...count), "seed \(seed)")
        #expect(phone.received == Array(1...count), "seed \(seed)")
        #expect(drops > 1)
    }

    @Test func theWindowBoundsUnacknowledgedEntries() throws {
        var phone = DurableSide(epoch: 1)
        let wearable = DurableSide(epoch: 2)
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        _ = pair.phone.start()
        var wearableState = wearable
        let hello = perform(pair.wearable.start(), on: &pair.wearable, state: &wearableState).frames
        for frame in hello { _ = perform(pair.phone.receive(frame, at: start), on: &pair.phone, state: &phone) }
        var sent = 0
        for key in 1...20 as ClosedRange<UInt64> {
            phone.pending.append(.init(seq: phone.nextSeq, body: upsert(key)))
            sent += perform(pair.phone.enqueue(upsert(key)), on: &pair.phone, state: &phone).frames.count
        }
        #expect(sent == 8)
        #expect(pair.phone.logs.outbound.inFlightCount == 8)
    }

    /// PROTOCOL.md §10.2: the sender cuts a title and a body to the limits the peer's hello
    /// states, at a grapheme boundary, including changes logged before the peer was known.
    @Test func changesAreCutToTheTextLimitsOfThePeersHello() throws {
        var phone = DurableSide(epoch: 1)
        var wearable = DurableSide(epoch: 2)
        let title = "Dinner at the 🇫🇷 bistro"  // the flag is one grapheme of 8 bytes, from byte 14
        let body = String(repeating: "é", count: 100)  // 200 bytes
        let change: Relay_V1_Envelope.OneOf_Body = .change(.with {
            $0.upsert = .with { $0.key = 1; $0.revision = 1; $0.content = .with { $0.title = title; $0.body = body } }
        })
        phone.pending.append(.init(seq: phone.nextSeq, body: change))
        let hello = Relay_V1_Hello.with {
            $0.role = .wearable
            $0.capabilities = .with { $0.maxTitleBytes = 18; $0.maxBodyBytes = 64 }
        }
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start, wearableHello: hello)
        let toWearable = perform(pair.phone.start(), on: &pair.phone, state: &phone).frames
        var toPhone = perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames
        var delivered: [Relay_V1_Content] = []
        for frame in toPhone { toPhone = perform(pair.phone.receive(frame, at: start), on: &pair.phone, state: &phone).frames }
        for frame in toWearable + toPhone {
            for case .deliver(_, .change(let change)) in pair.wearable.receive(frame, at: start) {
                if case .upsert(let upsert)? = change.kind { delivered.append(upsert.content) }
            }
        }
        #expect(delivered.map(\.title) == ["Dinner at the "], "the flag does not fit whole, so it is left out whole")
        #expect(delivered.map(\.body) == [String(repeating: "é", count: 32)])

        // A peer that states no limits (0) gets the text whole.
        #expect(TextFitting(Relay_V1_Capabilities()).fitted(.with { $0.upsert.content.body = body }).upsert.content.body == body)
    }

    @Test func replayedAndTamperedFramesCloseTheSession() throws {
        var phone = DurableSide(epoch: 1)
        var wearable = DurableSide(epoch: 2)
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        let hello = perform(pair.phone.start(), on: &pair.phone, state: &phone).frames
        _ = perform(pair.wearable.start(), on: &pair.wearable, state: &wearable)
        #expect(perform(pair.wearable.receive(hello[0], at: start), on: &pair.wearable, state: &wearable).failures.isEmpty)
        let replay = perform(pair.wearable.receive(hello[0], at: start), on: &pair.wearable, state: &wearable)
        #expect(replay.failures == [.decryptionFailed])

        var pair2 = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        var frame = perform(pair2.phone.start(), on: &pair2.phone, state: &phone).frames[0]
        frame[frame.startIndex] ^= 0x80
        #expect(perform(pair2.wearable.receive(frame, at: start), on: &pair2.wearable, state: &wearable).failures == [.decryptionFailed])
    }

    @Test func heartbeatsMeasureTheRoundTripAndSilenceKillsTheLink() throws {
        var phone = DurableSide(epoch: 1)
        var wearable = DurableSide(epoch: 2)
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        for frame in perform(pair.phone.start(), on: &pair.phone, state: &phone).frames {
            _ = perform(pair.wearable.receive(frame, at: start), on: &pair.wearable, state: &wearable)
        }
        for frame in perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames {
            _ = perform(pair.phone.receive(frame, at: start), on: &pair.phone, state: &phone)
        }
        #expect(pair.phone.tick(at: start + .seconds(1)).isEmpty)
        let ping = perform(pair.phone.tick(at: start + .seconds(6)), on: &pair.phone, state: &phone).frames
        #expect(ping.count == 1)
        let pong = perform(pair.wearable.receive(ping[0], at: start + .seconds(6)), on: &pair.wearable, state: &wearable).frames
        _ = perform(pair.phone.receive(pong[0], at: start + .milliseconds(6_040)), on: &pair.phone, state: &phone)
        #expect(pair.phone.liveness.roundTripTime == .milliseconds(40))
        let dead = perform(pair.phone.tick(at: start + .seconds(30)), on: &pair.phone, state: &phone)
        #expect(dead.failures.count == 1)
        #expect(dead.failures.first?.description.contains("the link is dead") == true)
    }

    @Test func aResetPeerLogIsDetectedByItsEpoch() throws {
        var phone = DurableSide(epoch: 1, applied: 40, peerEpoch: 99)
        var wearable = DurableSide(epoch: 2)
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        _ = perform(pair.phone.start(), on: &pair.phone, state: &phone)
        for frame in perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames {
            _ = perform(pair.phone.receive(frame, at: start), on: &pair.phone, state: &phone)
        }
        #expect(phone.peerEpoch == 2)
        #expect(phone.applied == 0)
    }
}

@Suite struct RecoveryTests {
    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()
    let start = ContinuousClock.now

    @Test func aPeerThatLostItsStateGetsASnapshotNotAGap() throws {
        // The phone's log was acknowledged through 30 and trimmed; the wearable was wiped.
        var phone = DurableSide(epoch: 5)
        phone.acknowledged = 30
        var wearable = DurableSide(epoch: 6)
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        _ = perform(pair.phone.start(), on: &pair.phone, state: &phone)
        let hello = perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames
        let actions = pair.phone.receive(hello[0], at: start)
        #expect(!actions.contains { if case .peerHello = $0 { true } else { false } }, "a session that cannot be is not announced")
        let result = perform(actions, on: &pair.phone, state: &phone)
        #expect(result.failures == [.peerNeedsSnapshot(peerHas: 0, logStartsAfter: 30)])
    }

    @Test func aDuplicateIsIgnoredButAcknowledgedAgain() throws {
        // With cursors exchanged in the hellos a correct peer never resends an applied
        // entry; one that does gets an acknowledgement, not a second application.
        var cursor = InboundCursor(appliedThrough: 4)
        #expect(try cursor.disposition(of: 3) == .duplicate)
        #expect(!cursor.acknowledgementDue)
        cursor.duplicateReceived()
        #expect(cursor.acknowledgementDue)
        #expect(try cursor.disposition(of: 5) == .apply)
        #expect(throws: LinkFailure.self) { try cursor.disposition(of: 7) }
    }

    @Test func anAcknowledgementBeyondTheLogIsAViolation() {
        var log = OutboundLog<Int>(window: 4)
        _ = log.append(1)
        #expect(throws: LinkFailure.self) { try log.acknowledge(through: 2) }
    }
}

@Suite struct BulkChannelTests {
    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()
    let start = ContinuousClock.now

    @Test func aPeerThatAsksForMoreThanItReadsIsNotAnsweredBeyondTheBacklogLimit() throws {
        let phone = DurableSide(epoch: 1)
        let wearable = DurableSide(epoch: 2)
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        func chunk(_ file: UInt8) -> Relay_V1_Envelope.OneOf_Body {
            .attachmentChunk(.with { $0.sha256 = Data(repeating: file, count: 32); $0.data = Data(repeating: 1, count: 4096) })
        }
        var taken = 0
        for _ in 0..<LinkSession.bulkBacklogPerFile where pair.phone.enqueueBulk(chunk(1)) { taken += 1 }
        #expect(taken == LinkSession.bulkBacklogPerFile)
        let oneMore = pair.phone.enqueueBulk(chunk(1))
        #expect(!oneMore)
        #expect(pair.phone.bulkRefused == 1)
        // A catch-up asking for many files at once is not held back by the bound of one.
        var others = 0
        for file in 2...200 as ClosedRange<UInt8> where pair.phone.enqueueBulk(chunk(file)) && pair.phone.enqueueBulk(chunk(file)) { others += 1 }
        #expect(others == 199)
        #expect(pair.phone.bulkBacklog == LinkSession.bulkBacklogPerFile + 2 * 199)
    }

    @Test func controlMessagesNeverWaitBehindMoreThanOneChunk() throws {
        var phone = DurableSide(epoch: 1)
        var wearable = DurableSide(epoch: 2)
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        for frame in perform(pair.phone.start(), on: &pair.phone, state: &phone).frames {
            _ = perform(pair.wearable.receive(frame, at: start), on: &pair.wearable, state: &wearable)
        }
        for frame in perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames {
            _ = perform(pair.phone.receive(frame, at: start), on: &pair.phone, state: &phone)
        }
        // An image of 5 chunks is queued; the transport takes one chunk at a time.
        for offset in 0..<5 {
            pair.phone.enqueueBulk(.attachmentChunk(.with {
                $0.sha256 = Data(repeating: 0xAB, count: 32); $0.offset = UInt32(offset * 4096); $0.totalSize = 5 * 4096
                $0.data = Data(repeating: UInt8(offset), count: 4096)
            }))
        }
        var wire: [Data] = []
        for key in 1...5 as ClosedRange<UInt64> {
            wire += perform(pair.phone.nextBulkFrame(), on: &pair.phone, state: &phone).frames  // one chunk in flight
            phone.pending.append(.init(seq: phone.nextSeq, body: upsert(key)))
            let control = perform(pair.phone.enqueue(upsert(key)), on: &pair.phone, state: &phone).frames
            #expect(control.count == 1, "a control message is sent at once, not queued behind the image")
            wire += control
        }
        #expect(pair.phone.bulkBacklog == 0)
        #expect(pair.phone.nextBulkFrame().isEmpty)

        // The wearable sees chunk, notification, chunk, notification, ...
        var kinds: [String] = []
        for frame in wire {
            for action in pair.wearable.receive(frame, at: start) {
                switch action {
                case .message(.attachmentChunk): kinds.append("chunk")
                case .deliver(let seq, _):
                    kinds.append("upsert")
                    pair.wearable.applied(seq)
                default: break
                }
            }
        }
        #expect(kinds == Array(repeating: ["chunk", "upsert"], count: 5).flatMap { $0 })
    }
}

/// Each log has one direction, each role one side, and pairing its own connections
/// (PROTOCOL.md §8.2, §8.3, §7.4): a peer that mixes them is closed as a protocol violation.
@Suite struct DirectionTests {
    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()
    let start = ContinuousClock.now

    /// The phone's failures after the wearable (in `wearableState`, with `wearableHello`) said
    /// hello and sent what `wearableSends` makes.
    private func phoneFailures(
        wearableState: DurableSide = DurableSide(epoch: 2), wearableHello: Relay_V1_Hello? = nil,
        wearableSends: (inout LinkSession) -> [LinkSession.Action] = { _ in [] }
    ) throws -> [LinkFailure] {
        var phone = DurableSide(epoch: 1)
        var wearable = wearableState
        var pair = try connect(
            phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start, wearableHello: wearableHello)
        let phoneHello = perform(pair.phone.start(), on: &pair.phone, state: &phone).frames
        var frames = perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames
        for frame in phoneHello { frames += perform(pair.wearable.receive(frame, at: start), on: &pair.wearable, state: &wearable).frames }
        frames += perform(wearableSends(&pair.wearable), on: &pair.wearable, state: &wearable).frames
        var failures: [LinkFailure] = []
        for frame in frames { failures += perform(pair.phone.receive(frame, at: start), on: &pair.phone, state: &phone).failures }
        return failures
    }

    private static func isViolation(_ failures: [LinkFailure], mentioning words: String) -> Bool {
        failures.count == 1 && failures[0].description.contains("protocol violation") && failures[0].description.contains(words)
    }

    @Test func aHelloWithTheWrongRoleIsAViolation() throws {
        let failures = try phoneFailures(wearableHello: .with { $0.role = .phone })
        #expect(Self.isViolation(failures, mentioning: "role"), "\(failures)")
    }

    @Test func aChangeFromTheWearableIsAViolation() throws {
        var wearable = DurableSide(epoch: 2)
        wearable.pending = [.init(seq: 1, body: .change(.with { $0.upsert = .with { $0.key = 1; $0.revision = 1 } }))]
        let failures = try phoneFailures(wearableState: wearable)
        #expect(Self.isViolation(failures, mentioning: "a change from the wearable"), "\(failures)")
    }

    @Test func theWearablesEventsAreTakenIn() throws {
        var wearable = DurableSide(epoch: 2)
        wearable.pending = [.init(seq: 1, body: .event(.with { $0.at = 1 }))]
        #expect(try phoneFailures(wearableState: wearable).isEmpty)
    }

    @Test func aPairingMessageInASessionIsAViolation() throws {
        let failures = try phoneFailures { wearable in wearable.sendUnlogged(.pairing(.with { $0.confirmed = true })) }
        #expect(Self.isViolation(failures, mentioning: "pairing message in a session"), "\(failures)")
    }

    @Test func anEventFromThePhoneIsAViolation() throws {
        var phone = DurableSide(epoch: 1)
        phone.pending = [.init(seq: 1, body: .event(.with { $0.at = 1 }))]
        var wearable = DurableSide(epoch: 2)
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start)
        let wearableHello = perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames
        var frames = perform(pair.phone.start(), on: &pair.phone, state: &phone).frames
        for frame in wearableHello { frames += perform(pair.phone.receive(frame, at: start), on: &pair.phone, state: &phone).frames }
        var failures: [LinkFailure] = []
        for frame in frames { failures += perform(pair.wearable.receive(frame, at: start), on: &pair.wearable, state: &wearable).failures }
        #expect(Self.isViolation(failures, mentioning: "an event from the phone"), "\(failures)")
    }
}
