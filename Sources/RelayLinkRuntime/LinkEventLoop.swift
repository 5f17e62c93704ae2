import Foundation
import Logging
import RelayLink
import RelayTransport
import RelayWire

/// The connection's one consumer of events: the handshake, then the session.
struct LinkEventLoop {
    let driver: LinkConnectionDriver
    let writer: FrameWriter
    var events: AsyncStream<LinkEvent>.AsyncIterator
    let sink: AsyncStream<LinkEvent>.Continuation
    /// Given back for each batch of frames once it is handled, so the reader may read on.
    let credits: ReadCredits
    /// Shows the heartbeat a write that waits.
    let writes: WriteWatch
    /// Rings (a `.tick`) when the handshake's or the session's next deadline comes.
    let alarm: LinkAlarm
    let logger: Logger
    /// The last event taken was a batch of frames, whose credit is still out.
    var holdsFrames = false

    mutating func run() async throws -> LinkConnectionDriver.Outcome {
        var handshake: LinkHandshake
        switch driver.role {
        case .initiator(let intent): handshake = LinkHandshake(initiating: intent, localKey: driver.localKey)
        case .responder(let acceptance): handshake = LinkHandshake(responding: acceptance, localKey: driver.localKey)
        }
        let clock = driver.clock
        let started = clock.now
        alarm.arm(at: started + driver.timeouts.handshake)
        try await write(Self.frames(handshake.start()))
        var early: [LinkConnectionDriver.Command] = []
        var leftovers: [Data] = []
        handshaking: while true {
            guard let event = await nextEvent() else { return .closed }
            switch event {
            case .frames(let batch):
                for (index, frame) in batch.enumerated() {
                    let steps = handshake.receive(frame)
                    try await write(Self.frames(steps))
                    for case .failed(let failure) in steps { return .failed(failure) }
                    if steps.contains(.established) {
                        leftovers = Array(batch[(index + 1)...])
                        break handshaking
                    }
                }
            case .endOfStream: return .closed
            case .readFailed(let error): return .failed(.framing(error))
            case .command(.close): return .closed
            case .command(let command): early.append(command)
            case .tick:
                // A peer that stops in the middle of the handshake is as dead as a silent session.
                let waited = clock.now - started
                if waited >= driver.timeouts.handshake { return .failed(.peerSilent(seconds: Self.seconds(waited))) }
                alarm.arm(at: started + driver.timeouts.handshake)
            case .chunkWritten: continue
            }
        }
        let link = try handshake.finish()
        let identity = LinkIdentity(mode: link.mode, remoteStaticKey: link.remoteStaticKey, handshakeHash: link.handshakeHash)
        logger.info("link established", metadata: ["mode": "\(link.mode)", "version": "\(link.version)"])
        // A pairing connection carries no log (PROTOCOL.md §7.4): empty logs in epoch 0, and a
        // Hello of role, version and name only, whatever the owner keeps for its sessions.
        let pairing = link.mode == .pair
        var hello = driver.hello
        let logs: LinkSession.Logs
        if pairing {
            hello.clearCapabilities()
            logs = .pairing
        } else {
            do {
                logs = try await driver.delegate.loadLogs()
            } catch {
                return .failed(.localStorage(operation: "load the stored logs", cause: FailureCause(error)))
            }
        }
        var session = LinkSession(
            link: link, hello: hello, logs: logs,
            liveness: LivenessMonitor(
                interval: driver.timeouts.heartbeat, timeout: driver.timeouts.silence, idleInterval: driver.timeouts.idleHeartbeat,
                now: clock.now),
            timeSource: driver.timeSource)
        var state = SessionState(identity: identity)
        let opening = try await carryOut(session.start(), session: &session, state: &state)
        try await write(opening.frames)
        if let outcome = opening.outcome { return outcome }
        for command in early {
            if let outcome = try await handle(.command(command), session: &session, state: &state) { return outcome }
        }
        if let outcome = try await handle(.frames(leftovers), session: &session, state: &state) { return outcome }
        while true {
            if let deadline = session.nextDeadline { alarm.arm(at: deadline) }
            guard let event = await nextEvent() else { return .closed }
            if let outcome = try await handle(event, session: &session, state: &state) { return outcome }
        }
    }

    /// Writes frames. While a write waits (the peer is not reading), the reader reads on
    /// without bound: a peer that waits for its own write to us to go through before it reads
    /// would otherwise wait for ever on us, and we on it.
    private func write(_ frames: [Data]) async throws {
        let start = driver.clock.now
        // A write into a full channel waits for the socket: it is looked at a tick apart from
        // the start, so that the bytes it sees drain are known before its limit. One taken at
        // once is looked at when it could have stalled, should it wait after all.
        let firstLook = start + (writer.isWritable ? driver.timeouts.writeStall : driver.timeouts.tick)
        try await credits.unboundedWhile {
            try await writes.timing(from: start) {
                // Armed once the write shows as under way, so the alarm cannot find it not begun.
                alarm.arm(at: firstLook)
                try await writer.write(frames)
            }
        }
    }

    /// The next event. Taking it means the one before is handled: a batch of frames gives its
    /// credit back then (the handshake's leftovers included, handled before the next event).
    private mutating func nextEvent() async -> LinkEvent? {
        if holdsFrames {
            credits.give()
            holdsFrames = false
        }
        let event = await events.next()
        if case .frames? = event { holdsFrames = true }
        return event
    }

    private struct SessionState {
        let identity: LinkIdentity
        var chunkInFlight = false
        var roundTrip: Duration?
        /// Entries of the peer's log taken in but not yet handed to the owner: they are stored
        /// together before anything is written (a written frame carries the acknowledgement).
        var deliveries: [InboundEntry] = []
    }

    /// Handles one event; returns an outcome when the connection is over.
    private mutating func handle(
        _ event: LinkEvent, session: inout LinkSession, state: inout SessionState
    ) async throws -> LinkConnectionDriver.Outcome? {
        var frames: [Data] = []
        var bulkStep = false
        switch event {
        case .frames(let batch):
            // Frame by frame: an entry must be applied before the next one is looked at.
            for frame in batch {
                let result = try await carryOut(session.receive(frame, at: driver.clock.now), session: &session, state: &state)
                frames += result.frames
                if let outcome = result.outcome { return try await finish(frames, outcome, &state) }
            }
            let ack = try await carryOut(session.flushAcknowledgement(), session: &session, state: &state)
            frames += ack.frames
            if let roundTrip = session.liveness.roundTripTime, roundTrip != state.roundTrip {
                state.roundTrip = roundTrip
                await driver.delegate.measured(roundTrip: roundTrip)
            }
        case .endOfStream:
            return .closed
        case .readFailed(let error):
            return .failed(.framing(error))
        case .tick:
            let result = try await carryOut(session.tick(at: driver.clock.now), session: &session, state: &state)
            if let outcome = result.outcome { return try await finish(result.frames, outcome, &state) }
            frames = result.frames
        case .command(.append(let seq, let body)):
            // An entry persisted before the session loaded the logs is already in them.
            guard seq >= session.nextOutboundSeq else { return nil }
            guard seq == session.nextOutboundSeq else {
                return .failed(.localViolation("the owner appended entry \(seq), but the log expects \(session.nextOutboundSeq)"))
            }
            let result = try await carryOut(session.enqueue(body), session: &session, state: &state)
            if let outcome = result.outcome { return try await finish(result.frames, outcome, &state) }
            frames = result.frames
        case .command(.bulk(let body)):
            if !session.enqueueBulk(body), session.bulkRefused == 1 {
                logger.warning(
                    "the peer asks for a file faster than it reads it; answers beyond \(LinkSession.bulkBacklogPerFile) chunks of one file are dropped")
            }
            if !state.chunkInFlight {
                frames = try await carryOut(session.nextBulkFrame(), session: &session, state: &state).frames
                bulkStep = true
            }
        case .command(.unlogged(let body)):
            frames = try await carryOut(session.sendUnlogged(body), session: &session, state: &state).frames
        case .command(.close(let reason)):
            let result = try await carryOut(session.close(code: .unspecified, message: reason), session: &session, state: &state)
            return try await finish(result.frames, .closed, &state)
        case .command(.unpaired(let reason)):
            let result = try await carryOut(session.close(code: .unpaired, message: reason), session: &session, state: &state)
            return try await finish(result.frames, .closed, &state)
        case .chunkWritten:
            state.chunkInFlight = false
            frames = try await carryOut(session.nextBulkFrame(), session: &session, state: &state).frames
            bulkStep = true
        }
        if let failure = await store(&state) { return failure }
        try await write(frames)
        if bulkStep && !frames.isEmpty {
            // The chunk is with the transport; the next one waits for this event, so control
            // messages queued meanwhile go first.
            state.chunkInFlight = true
            sink.yield(.chunkWritten)
        }
        return nil
    }

    /// Hands the entries taken in to the owner, one batch; a failure ends the connection.
    private func store(_ state: inout SessionState) async -> LinkConnectionDriver.Outcome? {
        guard !state.deliveries.isEmpty else { return nil }
        let entries = state.deliveries
        state.deliveries.removeAll()
        do {
            try await driver.delegate.apply(entries)
            return nil
        } catch {
            return .failed(.localStorage(operation: "store the entries taken in", cause: FailureCause(error)))
        }
    }

    /// Writes what was produced before the end, then ends.
    private func finish(
        _ frames: [Data], _ outcome: LinkConnectionDriver.Outcome, _ state: inout SessionState
    ) async throws -> LinkConnectionDriver.Outcome {
        // The frames may acknowledge entries taken in: stored first, or not written at all.
        if let failure = await store(&state) { return failure }
        try? await write(frames)
        return outcome
    }

    /// Carries out the session's actions in order — persisting through the delegate before
    /// anything that follows is written — and returns the frames to write.
    private func carryOut(
        _ actions: [LinkSession.Action], session: inout LinkSession, state: inout SessionState
    ) async throws -> (frames: [Data], outcome: LinkConnectionDriver.Outcome?) {
        var frames: [Data] = []
        for action in actions {
            switch action {
            case .send(let frame): frames.append(frame)
            case .peerHello(let hello):
                if let failure = await store(&state) { return (frames, failure) }
                await driver.delegate.connected(peer: hello, link: state.identity)
            case .peerLogReset(let epoch):
                if let failure = await store(&state) { return (frames, failure) }
                do {
                    try await driver.delegate.peerLogReset(epoch: epoch)
                } catch {
                    return (frames, .failed(.localStorage(operation: "store the peer's new log epoch", cause: FailureCause(error))))
                }
            case .deliver(let seq, let body):
                // Counted as applied at once, so the next frame is checked against it; stored
                // (with the others of this read) before anything is written.
                state.deliveries.append(InboundEntry(seq: seq, body: body))
                session.applied(seq)
            case .message(let body):
                if let failure = await store(&state) { return (frames, failure) }
                await driver.delegate.received(body)
            case .acknowledged(let seq):
                do {
                    try await driver.delegate.acknowledged(through: seq)
                } catch {
                    return (frames, .failed(.localStorage(operation: "remove the entries the peer acknowledged", cause: FailureCause(error))))
                }
            case .peerTime(let time): await driver.delegate.peerTime(time)
            case .failed(let reason): return (frames, .failed(reason))
            }
        }
        return (frames, nil)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func frames(_ steps: [LinkHandshake.Step]) -> [Data] {
        steps.compactMap { if case .send(let frame) = $0 { frame } else { nil } }
    }
}
