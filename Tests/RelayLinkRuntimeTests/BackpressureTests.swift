import Foundation
import RelayCore
import RelaySystem
import RelayLink
import RelayLinkRuntime
import RelayTestSupport
import RelayTransport
import RelayWire
import Synchronization
import Testing

/// A peer that sends faster than the owner handles what arrives: the driver stops reading,
/// and the peer's writes wait, instead of everything it sent piling up in memory.
@Suite(.timeLimit(.minutes(1))) struct BackpressureTests {
    /// The wearable's store, which does not come back from `connected` until the test lets it.
    final class StalledOwner: LinkDelegate {
        let store = MemoryDelegate(epoch: 2, expecting: 0)
        let gate = Gate()
        let entered: AsyncStream<Void>
        private let enter: AsyncStream<Void>.Continuation

        init() { (entered, enter) = AsyncStream.makeStream() }

        func loadLogs() async throws -> LinkSession.Logs { try await store.loadLogs() }
        func apply(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) async throws { try await store.apply(seq: seq, body: body) }
        func acknowledged(through seq: UInt64) async throws { try await store.acknowledged(through: seq) }
        func peerLogReset(epoch: UInt64) async throws { try await store.peerLogReset(epoch: epoch) }
        func received(_ body: Relay_V1_Envelope.OneOf_Body) async {}
        func connected(peer: Relay_V1_Hello, link: LinkIdentity) async {
            enter.yield()
            await gate.wait()
        }
    }

    /// Bytes the peer got written so far.
    final class Written: Sendable {
        let bytes = Atomic<Int>(0)
    }

    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()

    @Test func aPeerSendingFasterThanTheOwnerHandlesIsHeldBackByTheSocket() async throws {
        let (peerEnd, wearableEnd) = try await connectedPair()
        let owner = StalledOwner()
        // Time stands still: no deadline can end the connection while the flood is held back.
        let wearable = LinkConnectionDriver(
            role: .responder(.init(pairable: false, partnerKey: phoneKey.publicKey)), localKey: wearableKey,
            hello: .with { $0.role = .wearable }, delegate: owner, logger: LogRecorder().logger, clock: ManualLinkClock())
        let (idle, _) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        async let outcome = wearable.run(wearableEnd, commands: idle)
        let phoneKey = phoneKey, wearableKey = wearableKey
        let total = 32 << 20
        let written = Written()
        let finishedWriting = try await peerEnd.run { reader, writer in
            guard let hello = try await BadInputTests.handshake(as: phoneKey, with: wearableKey, reader: &reader, writer: writer)
            else {
                Issue.record("the handshake failed")
                return (true, 0)
            }
            try await writer.write([hello])
            var entered = owner.entered.makeAsyncIterator()
            _ = await entered.next()
            // The owner is stuck in `connected`; 32 MB of frames follow (not valid session
            // frames: nothing looks at them until the owner comes back).
            let frame = Data(repeating: 0x5A, count: 16_000)
            let (done, markDone) = AsyncStream<Void>.makeStream()
            let flood = Task {
                defer { markDone.finish() }
                while written.bytes.load(ordering: .relaxed) < total {
                    try await writer.write([frame])
                    written.bytes.add(frame.count, ordering: .relaxed)
                }
                markDone.yield()
            }
            // Not finishing is what is asserted, so this one waits for a deadline: the flood
            // must still be stuck after two seconds (without a bound it takes milliseconds).
            let finished = await within(.seconds(2)) {
                var end = done.makeAsyncIterator()
                return await end.next() != nil
            } ?? false
            // What the wearable's side took in while the owner was stuck: what the flood wrote,
            // less what still waits in this end's own outbound buffer (megabytes when the
            // machine is busy, which says nothing about the wearable). The buffer is read
            // first, so a write slipping in between can only make the figure larger.
            let stillHere = await writer.waitingBytes() ?? 0
            let takenIn = written.bytes.load(ordering: .relaxed) - stillHere
            // Once the owner goes on, the flood does too until the owner finds the garbage and closes.
            owner.gate.open()
            _ = try? await flood.value
            while (try? await reader.nextBatch()) != nil {}
            return (finished, takenIn)
        }
        let ended = await outcome
        #expect(!finishedWriting.0)
        // The socket pair's buffers, NIO's inbound buffer (ten reads) and the few batches the
        // driver may hold: about a megabyte, where nothing held it back before.
        #expect(finishedWriting.1 < 4 << 20, "\(finishedWriting.1) bytes were taken in")
        guard case .failed = ended else {
            Issue.record("the connection ended without a failure: \(ended)")
            return
        }
    }

    /// Time moves only when the test moves it, and only the write-stall deadline is short: the
    /// handshake and the hello cannot race it however slowly a loaded machine runs the peer, and
    /// a silent session cannot be what ends the connection.
    static let onlyTheWriteStall = LinkTimeouts(
        heartbeat: .seconds(5), handshake: .seconds(365 * 86_400), silence: .seconds(365 * 86_400), writeStall: .seconds(2))

    @Test func aPeerThatStopsReadingIsGivenUpOnAfterTheWriteStallDeadline() async throws {
        let (peerEnd, wearableEnd) = try await connectedPair(socketBuffer: 16_384)
        let store = MemoryDelegate(epoch: 2, expecting: 0)
        let logs = LogRecorder()
        let clock = ManualLinkClock()
        let wearable = LinkConnectionDriver(
            role: .responder(.init(pairable: false, partnerKey: phoneKey.publicKey)), localKey: wearableKey,
            hello: .with { $0.role = .wearable }, delegate: store, logger: logs.logger,
            timeouts: Self.onlyTheWriteStall, clock: clock)
        // A window of large entries: more than the socket and NIO take in, so the writes wait.
        let (commands, send) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        let title = String(repeating: "x", count: 12_000)
        for key in 1...64 as ClosedRange<UInt64> {
            let body = Relay_V1_Envelope.OneOf_Body.change(.with {
                $0.upsert = .with { $0.key = key; $0.revision = 1; $0.content = .with { $0.title = title } }
            })
            send.yield(.append(seq: store.persist(body), body: body))
        }
        let (ended, end) = AsyncStream<LinkConnectionDriver.Outcome>.makeStream()
        let running = Task {
            end.yield(await wearable.run(wearableEnd, commands: commands))
            end.finish()
        }
        let phoneKey = phoneKey, wearableKey = wearableKey
        let outcome = try await peerEnd.run { reader, writer -> LinkConnectionDriver.Outcome? in
            guard let hello = try await BadInputTests.handshake(as: phoneKey, with: wearableKey, reader: &reader, writer: writer)
            else { return nil }
            try await writer.write([hello])
            // Reads nothing more, and keeps its end open while time moves on, one tick at a time,
            // each step taken once the wearable's ticker has looked at the one before.
            let ticking = Task {
                while !Task.isCancelled {
                    await clock.someoneSleeps()
                    clock.advance(by: Self.onlyTheWriteStall.writeStall / 5)
                }
            }
            defer { ticking.cancel() }
            var iterator = ended.makeAsyncIterator()
            return await iterator.next()
        }
        await running.value
        guard case .failed(.peerNotReading(let seconds))? = outcome else {
            Issue.record("the wearable did not give up on a peer that stopped reading: \(String(describing: outcome))")
            return
        }
        // Given up at the first look past the deadline: time moves in fifths of it.
        #expect(seconds > 2 && seconds <= 2.4 + 1e-9, "given up after \(seconds) s")
        let lines = logs.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("the peer took nothing we sent for \(seconds) s") }, "\(lines)")
    }
}
