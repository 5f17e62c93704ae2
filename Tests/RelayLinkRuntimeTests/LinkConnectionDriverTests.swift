import Foundation
import Glibc
import Logging
import NIOCore
import RelayLink
import RelayLinkRuntime
import RelayTransport
import RelayWire
import Synchronization
import Testing

/// An in-memory database for one side, with a signal when enough entries arrived.
final class MemoryDelegate: LinkDelegate {
    struct State {
        var pending: [OutboundLog<Relay_V1_Envelope.OneOf_Body>.Entry] = []
        var acknowledged: UInt64 = 0
        var applied: UInt64 = 0
        var peerEpoch: UInt64 = 0
        var received: [UInt64] = []
    }

    let epoch: UInt64
    let state = Mutex(State())
    let expecting: Int
    /// What storing an entry throws, as a full disk would; `nil` stores.
    let storageFailure: (any Error)?
    let done: AsyncStream<Void>.Continuation
    let finished: AsyncStream<Void>

    init(epoch: UInt64, expecting: Int, storageFailure: (any Error)? = nil) {
        self.epoch = epoch
        self.expecting = expecting
        self.storageFailure = storageFailure
        (finished, done) = AsyncStream<Void>.makeStream()
    }

    /// Persists an outbound entry and returns its sequence number.
    func persist(_ body: Relay_V1_Envelope.OneOf_Body) -> UInt64 {
        state.withLock { state in
            let seq = (state.pending.last?.seq ?? state.acknowledged) + 1
            state.pending.append(.init(seq: seq, body: body))
            return seq
        }
    }

    func loadLogs() async throws -> LinkSession.Logs {
        state.withLock { state in
            LinkSession.Logs(
                outbound: OutboundLog(pending: state.pending, acknowledgedThrough: state.acknowledged), ownEpoch: epoch,
                inbound: InboundCursor(appliedThrough: state.applied), peerEpoch: state.peerEpoch)
        }
    }

    func apply(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) async throws {
        if let storageFailure { throw storageFailure }
        let count = state.withLock { state -> Int in
            if case .change(let change) = body, case .upsert(let upsert)? = change.kind { state.received.append(upsert.key) }
            state.applied = seq
            return state.received.count
        }
        if count == expecting { done.yield() }
    }

    func acknowledged(through seq: UInt64) async throws {
        state.withLock { state in
            state.pending.removeAll { $0.seq <= seq }
            state.acknowledged = max(state.acknowledged, seq)
        }
    }

    func peerLogReset(epoch: UInt64) async throws {
        state.withLock { $0.peerEpoch = epoch; $0.applied = 0 }
    }

    func received(_ body: Relay_V1_Envelope.OneOf_Body) async {}
    func connected(peer: Relay_V1_Hello, link: LinkIdentity) async {}
}

/// Collects log lines, so a test can check that a failure was logged with its reason.
final class LogRecorder: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "test") { _ in RecordingHandler(recorder: self) }
    }

    struct RecordingHandler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.lines.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }
}

func connectedPair(socketBuffer: Int32? = nil) async throws -> (FramedConnection, FramedConnection) {
    var fds: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw TransportError.invalidEndpoint("socketpair", "failed") }
    // Small buffers make "the peer's socket is full" independent of the machine's defaults.
    if var size = socketBuffer {
        for fd in fds {
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
    }
    return (try await Transport.adopt(descriptor: fds[0], peer: "phone-end"), try await Transport.adopt(descriptor: fds[1], peer: "wearable-end"))
}

@Suite(.timeLimit(.minutes(1))) struct LinkConnectionDriverTests {
    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()

    @Test func entriesAppendedByTheOwnerArriveOnceAndAreAcknowledged() async throws {
        let (phoneEnd, wearableEnd) = try await connectedPair()
        let phoneStore = MemoryDelegate(epoch: 1, expecting: 0)
        let wearableStore = MemoryDelegate(epoch: 2, expecting: 300)
        let logs = LogRecorder()
        let phone = LinkConnectionDriver(
            role: .initiator(.session(partnerKey: wearableKey.publicKey)), localKey: phoneKey, hello: .with { $0.role = .phone },
            delegate: phoneStore, logger: logs.logger)
        let wearable = LinkConnectionDriver(
            role: .responder(.init(pairable: false, partnerKey: phoneKey.publicKey)), localKey: wearableKey,
            hello: .with { $0.role = .wearable }, delegate: wearableStore, logger: logs.logger)
        let (commands, send) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        let (idle, _) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        async let phoneOutcome = phone.run(phoneEnd, commands: commands)
        async let wearableOutcome = wearable.run(wearableEnd, commands: idle)
        // The first half is appended before the session is up, the rest while it runs.
        for key in 1...300 as ClosedRange<UInt64> {
            let body = Relay_V1_Envelope.OneOf_Body.change(.with { $0.upsert = .with { $0.key = key; $0.revision = 1 } })
            send.yield(.append(seq: phoneStore.persist(body), body: body))
        }
        var done = wearableStore.finished.makeAsyncIterator()
        _ = await done.next()
        send.yield(.close("test finished"))
        let phoneEnded = await phoneOutcome
        let wearableEnded = await wearableOutcome
        #expect(phoneEnded == .closed)
        // The phone said why it closed; the wearable reports exactly that.
        #expect(wearableEnded == .failed(.peerClosed("unspecified: test finished")))
        let received = wearableStore.state.withLock { $0.received }
        #expect(received == Array(1...300))
        let lines = logs.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("link established") })
    }

    /// A disk that cannot take an entry.
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on the device" }
    }

    @Test func aLocalStorageFailureKeepsItsCauseBlamesThisSideAndAcknowledgesNothing() async throws {
        let (phoneEnd, wearableEnd) = try await connectedPair()
        let phoneStore = MemoryDelegate(epoch: 1, expecting: 0)
        let logs = LogRecorder()
        let phone = LinkConnectionDriver(
            role: .initiator(.session(partnerKey: wearableKey.publicKey)), localKey: phoneKey, hello: .with { $0.role = .phone },
            delegate: phoneStore, logger: LogRecorder().logger)
        let wearable = LinkConnectionDriver(
            role: .responder(.init(pairable: false, partnerKey: phoneKey.publicKey)), localKey: wearableKey,
            hello: .with { $0.role = .wearable }, delegate: MemoryDelegate(epoch: 2, expecting: 1, storageFailure: DiskFull()),
            logger: logs.logger)
        let (commands, send) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        let (idle, _) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        async let phoneOutcome = phone.run(phoneEnd, commands: commands)
        async let wearableOutcome = wearable.run(wearableEnd, commands: idle)
        let body = Relay_V1_Envelope.OneOf_Body.change(.with { $0.upsert = .with { $0.key = 1; $0.revision = 1 } })
        send.yield(.append(seq: phoneStore.persist(body), body: body))
        let ended = await wearableOutcome
        guard case .failed(.localStorage(let operation, let cause)) = ended else {
            Issue.record("the wearable ended with \(ended), not a local storage failure")
            return
        }
        #expect(operation == "store the entries taken in")
        #expect(cause.error is DiskFull)
        #expect(logs.lines.withLock { $0 }.contains {
            $0.hasPrefix("warning: link closed: this side could not store the entries taken in: no space left on the device")
        })
        send.finish()
        _ = await phoneOutcome
        // The entry the wearable could not store was never acknowledged: it waits on the phone.
        #expect(phoneStore.state.withLock { $0.acknowledged } == 0)
    }

    @Test func garbageIsLoggedWithItsReasonAndCloses() async throws {
        let (strangerEnd, wearableEnd) = try await connectedPair()
        let logs = LogRecorder()
        let wearable = LinkConnectionDriver(
            role: .responder(.init(pairable: true, partnerKey: nil)), localKey: wearableKey, hello: .with { $0.role = .wearable },
            delegate: MemoryDelegate(epoch: 2, expecting: 0), logger: logs.logger)
        let (idle, _) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        async let outcome = wearable.run(wearableEnd, commands: idle)
        try await strangerEnd.run { _, writer in try await writer.writeRaw(Data([0, 8]) + Data("GET / HT".utf8)) }
        let ended = await outcome
        #expect(ended == .failed(.notRelay))
        let lines = logs.lines.withLock { $0 }
        #expect(lines.contains { $0 == "warning: link closed: the peer is not a Relay agent (no Relay preamble)" })
    }

    @Test func aSilentPeerIsDeclaredDeadAndLogged() async throws {
        let (phoneEnd, wearableEnd) = try await connectedPair()
        let logs = LogRecorder()
        let wearable = LinkConnectionDriver(
            role: .responder(.init(pairable: false, partnerKey: phoneKey.publicKey)), localKey: wearableKey,
            hello: .with { $0.role = .wearable }, delegate: MemoryDelegate(epoch: 2, expecting: 0), logger: logs.logger,
            // Only the session's silence is short: a handshake slowed by a loaded machine must not
            // end the connection in its place.
            timeouts: LinkTimeouts(
                heartbeat: .milliseconds(50), handshake: .seconds(30), silence: .milliseconds(250), writeStall: .seconds(30)))
        let (idle, _) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        async let outcome = wearable.run(wearableEnd, commands: idle)
        // The phone completes the handshake, then never answers again.
        let phoneKey = phoneKey, wearableKey = wearableKey
        do {
            try await phoneEnd.run { reader, writer in
                var handshake = LinkHandshake(initiating: .session(partnerKey: wearableKey.publicKey), localKey: phoneKey)
                try await writer.write(handshake.start().compactMap { if case .send(let f) = $0 { f } else { nil } })
                while let batch = try await reader.nextBatch() {
                    for frame in batch {
                        let replies = handshake.receive(frame).compactMap { if case .send(let f) = $0 { f } else { nil } }
                        if !replies.isEmpty { try await writer.write(replies) }
                    }
                }
            }
        } catch let error as IOError where error.errnoCode == ECONNRESET {
            // The wearable gave up with some of the phone's bytes unread: the kernel ends such a
            // close with a reset instead of an end of file. Either way the link is over.
        } catch ChannelError.ioOnClosedChannel {
            // The wearable's close reached this end between its read and its write.
        }
        let ended = await outcome
        guard case .failed(.peerSilent) = ended else {
            Issue.record("expected a dead-link failure")
            return
        }
        let lines = logs.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("the link is dead") })
    }
}
