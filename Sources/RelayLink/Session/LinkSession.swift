public import Foundation
import RelayNoise
public import RelayWire
import SwiftProtobuf

/// An established link: encrypts and decrypts envelopes, runs both directions' logs
/// (resend from cursors, cumulative acknowledgements, a bounded window), answers and
/// sends heartbeats, and keeps bulk data behind control messages.
///
/// A state machine like the handshake: feed it frames, ticks and entries, and carry out
/// the returned actions **in order** — in particular, persist a delivered entry before
/// sending anything that follows it, because what follows may acknowledge it.
public struct LinkSession: ~Copyable {
    /// Something the owner must do.
    public enum Action: Sendable {
        /// Write this frame payload (the owner adds the length prefix).
        case send(Data)
        /// The peer's hello arrived; the session has resumed the outbound log from it.
        case peerHello(Relay_V1_Hello)
        /// The peer reset its log: store the new epoch; its entries start again from 1.
        case peerLogReset(epoch: UInt64)
        /// A log entry to apply: persist its effect with the cursor, then call `applied(_:)`.
        case deliver(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)
        /// A message outside the log (attachment data, pairing): handle it.
        case message(Relay_V1_Envelope.OneOf_Body)
        /// The peer has everything through this entry: persisted copies may be deleted.
        case acknowledged(through: UInt64)
        /// A heartbeat brought the peer's wall clock (UTC) as it sent it.
        case peerTime(Date)
        /// Close the connection (after sending what came before).
        case failed(LinkFailure)
    }

    /// The durable state of both logs, as the owner restored it from storage.
    public struct Logs: Sendable {
        /// What this side sends.
        public var outbound: OutboundLog<Relay_V1_Envelope.OneOf_Body>
        /// This side's log epoch.
        public var ownEpoch: UInt64
        /// What this side has applied of the peer's log.
        public var inbound: InboundCursor
        /// The epoch of the peer's log that `inbound` counts in (0: none seen yet).
        public var peerEpoch: UInt64

        /// Creates the logs' state.
        public init(
            outbound: OutboundLog<Relay_V1_Envelope.OneOf_Body>, ownEpoch: UInt64, inbound: InboundCursor,
            peerEpoch: UInt64
        ) {
            self.outbound = outbound
            self.ownEpoch = ownEpoch
            self.inbound = inbound
            self.peerEpoch = peerEpoch
        }

        /// A pairing connection's: nothing in either log, in epoch 0 (PROTOCOL.md §7.4).
        public static var pairing: Logs { Logs(outbound: OutboundLog(), ownEpoch: 0, inbound: InboundCursor(), peerEpoch: 0) }
    }

    private var crypto: TransportSession
    /// Both logs' state, for status and for the owner's bookkeeping.
    public private(set) var logs: Logs
    /// Liveness and round-trip time.
    public private(set) var liveness: LivenessMonitor
    private let localHello: Relay_V1_Hello
    private let maximumFrameLength: Int
    private var bulkQueue: [Relay_V1_Envelope.OneOf_Body] = []
    /// Chunks waiting in `bulkQueue`, by file.
    private var bulkWaiting: [Data: Int] = [:]
    private var peerHelloReceived = false
    /// The text limits the peer's hello states, applied to each change as it is sent (so a
    /// change stored before the peer was known is fitted too, and again on a resend).
    private var peerFitting: TextFitting?
    private var closed = false
    /// Whether the link is a pairing connection (PROTOCOL.md §7.4): the only kind that may
    /// carry `Pairing`, and one that carries no log entries.
    private let isPairing: Bool
    /// This side's wall clock, when its hello and heartbeats carry it (the phone's).
    private let timeSource: (@Sendable () -> Date)?

    /// Wraps an established link. With `timeSource`, the hello and every heartbeat this side
    /// sends carry its reading (Docs/PROTOCOL.md, "The phone's clock").
    public init(
        link: consuming EstablishedLink, hello: Relay_V1_Hello, logs: Logs, liveness: LivenessMonitor,
        maximumFrameLength: Int = FrameFormat.defaultMaximumLength, timeSource: (@Sendable () -> Date)? = nil
    ) {
        isPairing = link.mode == .pair
        self.timeSource = timeSource
        crypto = link.session
        self.logs = logs
        self.liveness = liveness
        var hello = hello
        hello.receivedThrough = logs.inbound.appliedThrough
        hello.receivedEpoch = logs.peerEpoch
        hello.logEpoch = logs.ownEpoch
        hello.logHead = logs.outbound.nextSeq - 1
        localHello = hello
        self.maximumFrameLength = maximumFrameLength
    }

    /// The first action: this side's hello.
    public mutating func start() -> [Action] {
        var hello = localHello
        if let millis = timeMillis { hello.sentAtMillis = millis }
        return seal(.hello(hello), seq: 0)
    }

    /// This side's wall clock in milliseconds since 1970, when it tells the peer.
    private var timeMillis: Int64? {
        timeSource.map { Int64(($0().timeIntervalSince1970 * 1000).rounded()) }
    }

    /// A heartbeat (a ping, or the pong to `id`), stamped with this side's time if it tells it.
    private func heartbeat(id: UInt64, reply: Bool) -> Relay_V1_Envelope.OneOf_Body {
        .heartbeat(.with {
            $0.id = id
            $0.reply = reply
            if let millis = timeMillis { $0.sentAtMillis = millis }
        })
    }

    /// Whether the peer's hello has arrived (log entries flow only after it).
    public var isReady: Bool { peerHelloReceived && !closed }

    // MARK: Inbound

    /// Handles one frame payload from the peer.
    public mutating func receive(_ frame: Data, at now: ContinuousClock.Instant) -> [Action] {
        guard !closed else { return [] }
        let envelope: Relay_V1_Envelope
        do {
            let plaintext = try crypto.decrypt(frame)
            envelope = try Relay_V1_Envelope(serializedBytes: plaintext)
        } catch is NoiseError {
            return fail(.decryptionFailed, tell: false)
        } catch {
            return fail(.protocolViolation("a frame did not decode as an envelope"))
        }
        liveness.heard(at: now)
        guard let body = envelope.body else {
            // An acknowledgement only, or a message kind this version does not know.
            guard peerHelloReceived else { return fail(.protocolViolation("a message before the peer's hello")) }
            return acknowledge(envelope.ack)
        }

        if case .hello(let hello) = body {
            return receiveHello(hello, ack: envelope.ack)
        }
        guard peerHelloReceived else { return fail(.protocolViolation("a message before the peer's hello")) }
        var actions = acknowledge(envelope.ack)
        if closed { return actions }
        switch body {
        case .heartbeat(let beat):
            if beat.sentAtMillis != 0 {
                actions.append(.peerTime(Date(timeIntervalSince1970: TimeInterval(beat.sentAtMillis) / 1000)))
            }
            if beat.reply {
                liveness.pong(beat.id, at: now)
            } else {
                actions += seal(heartbeat(id: beat.id, reply: true), seq: 0)
            }
        case .error(let error) where error.code == .unpaired:
            return actions + fail(.peerUnpaired(error.message), tell: false)
        case .error(let error):
            return actions + fail(.peerClosed("\(error.code): \(error.message)"), tell: false)
        case .change, .event:
            if let problem = misdirected(body) { return actions + fail(.protocolViolation(problem)) }
            guard envelope.seq > 0 else { return fail(.protocolViolation("a log entry without a sequence number")) }
            do {
                switch try logs.inbound.disposition(of: envelope.seq) {
                case .apply: actions.append(.deliver(seq: envelope.seq, body: body))
                case .duplicate: logs.inbound.duplicateReceived()
                }
            } catch {
                return actions + fail(error)
            }
        case .pairing where !isPairing:
            return actions + fail(.protocolViolation("a pairing message in a session connection"))
        case .attachmentChunk, .attachmentRequest, .pairing:
            actions.append(.message(body))
        case .hello:
            break
        }
        return actions
    }

    /// Why a log entry cannot come from the peer, if it cannot (PROTOCOL.md §8.2): the phone's
    /// log holds changes and the wearable's events, and a pairing connection neither. A side
    /// whose own Hello names no role (a test's) takes either.
    private func misdirected(_ body: Relay_V1_Envelope.OneOf_Body) -> String? {
        if isPairing { return "a log entry on a pairing connection" }
        switch (localHello.role, body) {
        case (.phone, .change): return "a change from the wearable: changes are the phone's log"
        case (.wearable, .event): return "an event from the phone: events are the wearable's log"
        default: return nil
        }
    }

    /// The role the peer's Hello must name: the other side's, or any when this side's own
    /// Hello names none.
    private var expectedPeerRole: Relay_V1_Role? {
        switch localHello.role {
        case .phone: .wearable
        case .wearable: .phone
        default: nil
        }
    }

    /// The owner applied and persisted the entry `.deliver` handed it.
    public mutating func applied(_ seq: UInt64) {
        logs.inbound.applied(seq)
    }

    /// An acknowledgement-only envelope if one is owed and nothing else carried it;
    /// call after handling a batch of frames, so acknowledgements are coalesced.
    public mutating func flushAcknowledgement() -> [Action] {
        guard !closed, peerHelloReceived, logs.inbound.acknowledgementDue else { return [] }
        return seal(nil, seq: 0)
    }

    private mutating func receiveHello(_ hello: Relay_V1_Hello, ack: UInt64) -> [Action] {
        guard !peerHelloReceived else { return fail(.protocolViolation("a second hello")) }
        if let expected = expectedPeerRole, hello.role != expected {
            return fail(.protocolViolation("a hello with the role \(hello.role), where the peer is the \(expected)"))
        }
        peerHelloReceived = true
        if hello.hasCapabilities { peerFitting = TextFitting(hello.capabilities) }
        let peerHas = hello.receivedEpoch == logs.ownEpoch ? hello.receivedThrough : 0
        // Entries the peer lacks but this side already deleted as acknowledged cannot be
        // resent: the peer lost its state. Only a new log epoch (a snapshot) can help. Checked
        // before the peer is announced, so the owner never shows a session that cannot be.
        let needsSnapshot = peerHas < logs.outbound.acknowledgedThrough
        var actions: [Action] = needsSnapshot ? [] : [.peerHello(hello)]
        if hello.logEpoch != logs.peerEpoch {
            logs.inbound.reset()
            logs.peerEpoch = hello.logEpoch
            actions.append(.peerLogReset(epoch: hello.logEpoch))
        }
        guard !needsSnapshot else {
            return actions + fail(.peerNeedsSnapshot(peerHas: peerHas, logStartsAfter: logs.outbound.acknowledgedThrough))
        }
        do {
            try logs.outbound.resume(peerReceivedThrough: peerHas)
        } catch {
            return actions + fail(error)
        }
        if peerHas > 0 { actions.append(.acknowledged(through: peerHas)) }
        return actions + sendWindow()
    }

    private mutating func acknowledge(_ ack: UInt64) -> [Action] {
        guard ack > logs.outbound.acknowledgedThrough else { return [] }
        do {
            try logs.outbound.acknowledge(through: ack)
        } catch {
            return fail(error)
        }
        return [.acknowledged(through: ack)] + sendWindow()
    }

    // MARK: Outbound

    /// The sequence number the next log entry must be persisted under.
    public var nextOutboundSeq: UInt64 { logs.outbound.nextSeq }

    /// Queues a log entry the owner has persisted under `nextOutboundSeq`; sends it when
    /// the peer is ready and the window allows.
    public mutating func enqueue(_ body: Relay_V1_Envelope.OneOf_Body) -> [Action] {
        _ = logs.outbound.append(body)
        return sendWindow()
    }

    /// The most chunks of one file the session holds to send: a peer asking for a file faster
    /// than it reads it is not answered beyond this. A wearable keeps two requests of one chunk
    /// out per file; a catch-up asking for many files at once stays far inside, since the bound
    /// is per file (and so what it can make the sender hold is bounded by what is stored).
    public static let bulkBacklogPerFile = 32

    /// Bulk messages refused because their file's backlog was full.
    public private(set) var bulkRefused = 0

    /// Queues bulk data (attachment chunks): it goes out only through `nextBulkFrame()`.
    /// Returns false, queueing nothing, when `bulkBacklogPerFile` chunks of its file wait already.
    @discardableResult
    public mutating func enqueueBulk(_ body: Relay_V1_Envelope.OneOf_Body) -> Bool {
        let file = Self.bulkFile(of: body)
        guard bulkWaiting[file, default: 0] < Self.bulkBacklogPerFile else {
            bulkRefused += 1
            return false
        }
        bulkWaiting[file, default: 0] += 1
        bulkQueue.append(body)
        return true
    }

    /// What a bulk message's backlog is counted by: its file's hash.
    private static func bulkFile(of body: Relay_V1_Envelope.OneOf_Body) -> Data {
        if case .attachmentChunk(let chunk) = body { return chunk.sha256 }
        return Data()
    }

    /// Sends a message outside the log at once (pairing, attachment requests).
    public mutating func sendUnlogged(_ body: Relay_V1_Envelope.OneOf_Body) -> [Action] {
        guard !closed else { return [] }
        return seal(body, seq: 0)
    }

    /// The next bulk frame. The owner asks for one only when the previous one has been
    /// written, so a control frame waits behind at most one chunk.
    public mutating func nextBulkFrame() -> [Action] {
        guard !closed, peerHelloReceived, !bulkQueue.isEmpty else { return [] }
        let body = bulkQueue.removeFirst()
        let file = Self.bulkFile(of: body)
        bulkWaiting[file, default: 1] -= 1
        if bulkWaiting[file] == 0 { bulkWaiting.removeValue(forKey: file) }
        return seal(body, seq: 0)
    }

    /// Bulk messages waiting.
    public var bulkBacklog: Int { bulkQueue.count }

    private mutating func sendWindow() -> [Action] {
        guard peerHelloReceived, !closed else { return [] }
        var actions: [Action] = []
        while let entry = logs.outbound.nextToSend() {
            var body = entry.body
            if let peerFitting, case .change(let change) = body { body = .change(peerFitting.fitted(change)) }
            actions += seal(body, seq: entry.seq)
            if closed { break }
        }
        return actions
    }

    // MARK: Time

    /// The instant from which `tick` has something to do; `nil` once the session is closed.
    public var nextDeadline: ContinuousClock.Instant? {
        closed ? nil : liveness.nextDeadline(idle: logs.outbound.pending.isEmpty)
    }

    /// Time passed: heartbeats and dead-link detection.
    public mutating func tick(at now: ContinuousClock.Instant) -> [Action] {
        guard !closed else { return [] }
        switch liveness.tick(at: now, idle: logs.outbound.pending.isEmpty) {
        case .ping(let id)?:
            return seal(heartbeat(id: id, reply: false), seq: 0)
        case .dead(let silence)?:
            let seconds = Double(silence.components.seconds) + Double(silence.components.attoseconds) / 1e18
            return fail(.peerSilent(seconds: seconds), tell: false)
        case nil:
            return []
        }
    }

    /// Closes the session deliberately, telling the peer why.
    public mutating func close(code: Relay_V1_ErrorCode, message: String) -> [Action] {
        guard !closed else { return [] }
        let actions = seal(.error(.with { $0.code = code; $0.message = message }), seq: 0)
        closed = true
        return actions
    }

    // MARK: Sealing

    private mutating func seal(_ body: Relay_V1_Envelope.OneOf_Body?, seq: UInt64) -> [Action] {
        var envelope = Relay_V1_Envelope()
        envelope.seq = seq
        // Until the peer's hello arrives this side may still count in the peer's previous
        // log epoch, so it acknowledges nothing.
        envelope.ack = peerHelloReceived ? logs.inbound.appliedThrough : 0
        envelope.body = body
        do {
            let plaintext: Data = try envelope.serializedBytes()
            guard plaintext.count + NoiseConstants.tagLength <= maximumFrameLength else {
                closed = true
                return [.failed(.protocolViolation("an envelope of \(plaintext.count) bytes does not fit in a frame"))]
            }
            let frame = try crypto.encrypt(plaintext)
            logs.inbound.acknowledged()
            return [.send(frame)]
        } catch {
            closed = true
            return [.failed(.protocolViolation("could not seal an envelope: \(error)"))]
        }
    }

    private mutating func fail(_ failure: LinkFailure, tell: Bool = true) -> [Action] {
        guard !closed else { return [] }
        var actions: [Action] = []
        if tell {
            actions += seal(.error(.with { $0.code = .protocolViolation; $0.message = failure.description }), seq: 0)
        }
        closed = true
        return actions + [.failed(failure)]
    }
}
