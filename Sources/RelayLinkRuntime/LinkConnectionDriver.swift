public import Foundation
public import Logging
public import RelayLink
public import RelayTransport
public import RelayWire

/// Runs one connection of the link — the handshake, then the session — until it ends.
///
/// One task owns the state machines. Frames, ticks and the owner's commands arrive as
/// events on one stream and are handled in order; what the machines return is carried out
/// in order (persist through the delegate, then write). Every failure becomes one log line
/// with its reason and a closed connection: never a crash, a hang or a half-open session.
public struct LinkConnectionDriver: Sendable {
    /// What the owner can ask of a running connection.
    public enum Command: Sendable {
        /// An outbound log entry the owner has persisted under `seq`.
        case append(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)
        /// Bulk data (attachment chunks), sent one chunk at a time behind control messages.
        case bulk(Relay_V1_Envelope.OneOf_Body)
        /// A message outside the log, sent at once (pairing, attachment requests).
        case unlogged(Relay_V1_Envelope.OneOf_Body)
        /// Close the connection, telling the peer why.
        case close(String)
        /// Tell the peer this side forgot it (`Error{code: UNPAIRED}`), then close.
        case unpaired(String)
    }

    /// How the connection ended.
    public enum Outcome: Sendable, Equatable {
        /// The peer closed it, or the owner did.
        case closed
        /// It failed; the reason was logged.
        case failed(LinkFailure)
    }

    /// Which side of the handshake this is.
    public enum Role: Sendable {
        /// The phone: pairs or resumes.
        case initiator(LinkHandshake.Intent)
        /// The wearable.
        case responder(LinkHandshake.Acceptance)
    }

    let role: Role
    let localKey: StaticKeyPair
    let hello: Relay_V1_Hello
    let delegate: any LinkDelegate
    let logger: Logger
    let timeouts: LinkTimeouts
    let clock: any LinkClock
    let timeSource: (@Sendable () -> Date)?

    /// Creates a driver that keeps `timeouts` on `clock`. With `timeSource`, the hello and the
    /// heartbeats tell the peer this side's wall clock (the phone's, which the wearable follows).
    public init(
        role: Role, localKey: StaticKeyPair, hello: Relay_V1_Hello, delegate: any LinkDelegate, logger: Logger,
        timeouts: LinkTimeouts = .standard, clock: any LinkClock = SystemLinkClock(),
        timeSource: (@Sendable () -> Date)? = nil
    ) {
        self.timeSource = timeSource
        self.role = role
        self.localKey = localKey
        self.hello = hello
        self.delegate = delegate
        self.logger = logger
        self.timeouts = timeouts
        self.clock = clock
    }

    /// Runs the connection until it ends; `commands` carries the owner's requests.
    public func run(_ connection: FramedConnection, commands: AsyncStream<Command>) async -> Outcome {
        var logger = self.logger
        logger[metadataKey: "peer"] = "\(connection.peer)"
        let outcome: Outcome
        do {
            // On the connection's own thread: a frame is read, handled (stored included) and
            // answered there, and the owner's commands take one switch of thread to get there.
            outcome = try await withTaskExecutorPreference(connection.taskExecutor) {
                try await connection.runBatches { batches, writer in
                    try await serve(batches: batches, writer: writer, commands: commands, logger: logger)
                }
            }
        } catch {
            outcome = .failed(.transport(FailureCause(error)))
        }
        switch outcome {
        case .failed(let failure): logger.warning("link closed: \(failure)")
        case .closed: logger.info("link closed")
        }
        return outcome
    }

    private func serve(
        batches: FrameBatches, writer: FrameWriter, commands: AsyncStream<Command>, logger: Logger
    ) async throws -> Outcome {
        let (events, sink) = AsyncStream<LinkEvent>.makeStream()
        // A batch in the stream, one in the loop's hands: the next read waits for the first.
        let credits = ReadCredits(2)
        let writes = WriteWatch()
        return try await withThrowingTaskGroup(of: Void.self, returning: Outcome.self) { group in
            group.addTask {
                do {
                    for try await batch in batches {
                        await credits.take()
                        sink.yield(.frames(batch))
                    }
                    sink.yield(.endOfStream)
                } catch let error as FrameError {
                    sink.yield(.readFailed(error))
                } catch {
                    sink.yield(.endOfStream)
                }
            }
            // Rung at the session's next deadline, and a tick apart while a write waits, since
            // the loop sees nothing while a write of its waits: that one is watched here.
            let alarm = LinkAlarm(clock: clock) { [timeouts, clock] in
                sink.yield(.tick)
                guard writes.isWriting else { return nil }
                let waiting = await writer.waitingBytes()
                if writes.givesUp(after: timeouts.writeStall, waiting: waiting, now: clock.now) {
                    writer.abort()
                    return nil
                }
                return clock.now + timeouts.tick
            }
            defer { alarm.stop() }
            group.addTask {
                for await command in commands { sink.yield(.command(command)) }
            }
            var loop = LinkEventLoop(
                driver: self, writer: writer, events: events.makeAsyncIterator(), sink: sink, credits: credits, writes: writes,
                alarm: alarm, logger: logger)
            var outcome: Outcome
            do {
                outcome = try await loop.run()
            } catch {
                guard writes.gaveUp != nil else { throw error }
                outcome = .closed
            }
            // Given up on, even if the write went through just then and the loop saw only the close.
            if let waited = writes.gaveUp { outcome = .failed(.peerNotReading(seconds: LinkEventLoop.seconds(waited))) }
            group.cancelAll()
            return outcome
        }
    }
}

/// Something that happened to a connection.
enum LinkEvent: Sendable {
    case frames([Data])
    case endOfStream
    case readFailed(FrameError)
    case tick
    case command(LinkConnectionDriver.Command)
    case chunkWritten
}
