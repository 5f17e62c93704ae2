public import Foundation
public import RelayLink
public import RelayWire

/// Runs two handshake machines against each other, shuttling frames until both settle.
public struct HandshakeRun: ~Copyable {
    public var initiator: LinkHandshake
    public var responder: LinkHandshake
    public var initiatorSteps: [LinkHandshake.Step] = []
    public var responderSteps: [LinkHandshake.Step] = []
    /// Applied to every frame on its way, to play an attacker.
    public var tamper: (Int, Data) -> Data = { _, frame in frame }

    public init(initiator: consuming LinkHandshake, responder: consuming LinkHandshake) {
        self.initiator = initiator
        self.responder = responder
    }

    public mutating func run() {
        var toResponder = initiator.start()
        initiatorSteps += toResponder
        var frameIndex = 0
        var toInitiator: [LinkHandshake.Step] = []
        while true {
            var progressed = false
            for case .send(let frame) in toResponder {
                let steps = responder.receive(tamper(frameIndex, frame))
                frameIndex += 1
                responderSteps += steps
                toInitiator += steps
                progressed = true
            }
            toResponder = []
            for case .send(let frame) in toInitiator {
                let steps = initiator.receive(tamper(frameIndex, frame))
                frameIndex += 1
                initiatorSteps += steps
                toResponder += steps
                progressed = true
            }
            toInitiator = []
            if !progressed { return }
        }
    }

    public var initiatorFailure: LinkFailure? { Self.failure(initiatorSteps) }
    public var responderFailure: LinkFailure? { Self.failure(responderSteps) }

    public static func failure(_ steps: [LinkHandshake.Step]) -> LinkFailure? {
        for case .failed(let failure) in steps { return failure }
        return nil
    }

    /// What both sides agreed on, for tests in other modules (which cannot take the
    /// non-copyable sessions apart).
    public struct Summary: Sendable, Hashable {
        public var initiatorLearned: Data
        public var responderLearned: Data
        public var initiatorHash: Data
        public var responderHash: Data
        public var mode: Preamble.Mode
        public var version: UInt8
    }

    /// Finishes both sides and summarises them.
    public consuming func summary() throws -> Summary {
        let initiatorLink = try initiator.finish()
        let responderLink = try responder.finish()
        return Summary(
            initiatorLearned: initiatorLink.remoteStaticKey, responderLearned: responderLink.remoteStaticKey,
            initiatorHash: initiatorLink.handshakeHash, responderHash: responderLink.handshakeHash,
            mode: responderLink.mode, version: responderLink.version)
    }

    public static func established(_ steps: [LinkHandshake.Step]) -> Bool {
        steps.contains(.established)
    }
}

/// One side's durable state, as its database would hold it across connections and crashes.
public struct DurableSide: Sendable {
    public var epoch: UInt64
    public var pending: ArraySlice<OutboundLog<Relay_V1_Envelope.OneOf_Body>.Entry> = []
    public var acknowledged: UInt64 = 0
    public var applied: UInt64 = 0
    public var peerEpoch: UInt64 = 0
    public var received: [UInt64] = []
    /// The outbound window the side's sessions use.
    public var window = 8

    /// A side with an empty database.
    public init(epoch: UInt64, applied: UInt64 = 0, peerEpoch: UInt64 = 0) {
        self.epoch = epoch
        self.applied = applied
        self.peerEpoch = peerEpoch
    }

    public var nextSeq: UInt64 { (pending.last?.seq ?? acknowledged) + 1 }

    public var logs: LinkSession.Logs {
        LinkSession.Logs(
            outbound: OutboundLog(window: window, pending: Array(pending), acknowledgedThrough: acknowledged), ownEpoch: epoch,
            inbound: InboundCursor(appliedThrough: applied), peerEpoch: peerEpoch)
    }
}

/// Both ends of one connection.
public struct SessionPair: ~Copyable {
    public var phone: LinkSession
    public var wearable: LinkSession
}

/// Connects two sides through a handshake and returns their sessions.
public func connect(
    phone: StaticKeyPair, wearable: StaticKeyPair, phoneState: DurableSide, wearableState: DurableSide,
    now: ContinuousClock.Instant, liveness: (ContinuousClock.Instant) -> LivenessMonitor = { LivenessMonitor(now: $0) },
    wearableLiveness: ((ContinuousClock.Instant) -> LivenessMonitor)? = nil,
    wearableHello: Relay_V1_Hello? = nil, phoneTimeSource: (@Sendable () -> Date)? = nil
) throws -> SessionPair {
    var run = HandshakeRun(
        initiator: LinkHandshake(initiating: .session(partnerKey: wearable.publicKey), localKey: phone),
        responder: LinkHandshake(responding: .init(pairable: false, partnerKey: phone.publicKey), localKey: wearable))
    run.run()
    let phoneLink = try run.initiator.finish()
    let wearableLink = try run.responder.finish()
    return SessionPair(
        phone: LinkSession(
            link: phoneLink, hello: .with { $0.role = .phone }, logs: phoneState.logs, liveness: liveness(now),
            timeSource: phoneTimeSource),
        wearable: LinkSession(
            link: wearableLink, hello: wearableHello ?? .with { $0.role = .wearable }, logs: wearableState.logs,
            liveness: wearableLiveness.map { $0(now) } ?? liveness(now)))
}

/// Carries out a side's actions against its durable state; returns frames to send and failures.
public func perform(_ actions: [LinkSession.Action], on session: inout LinkSession, state: inout DurableSide) -> (frames: [Data], failures: [LinkFailure]) {
    var frames: [Data] = []
    var failures: [LinkFailure] = []
    var queue = actions
    while !queue.isEmpty {
        let action = queue.removeFirst()
        switch action {
        case .send(let frame): frames.append(frame)
        case .peerHello, .peerTime: break
        case .peerLogReset(let epoch):
            state.peerEpoch = epoch
            state.applied = 0
        case .deliver(let seq, let body):
            guard case .change(let change) = body, case .upsert(let upsert)? = change.kind else {
                if case .event(let event) = body, case .firedLocally(let fired)? = event.kind {
                    state.received.append(fired.scheduleKey)
                    state.applied = seq
                    session.applied(seq)
                }
                continue
            }
            state.received.append(upsert.key)
            state.applied = seq
            session.applied(seq)
        case .message: break
        case .acknowledged(let through):
            state.pending = state.pending.drop { $0.seq <= through }
            state.acknowledged = max(state.acknowledged, through)
        case .failed(let failure): failures.append(failure)
        }
    }
    return (frames, failures)
}

public func upsert(_ key: UInt64) -> Relay_V1_Envelope.OneOf_Body {
    .change(.with { $0.upsert = .with { $0.key = key; $0.revision = 1; $0.content = .with { $0.title = "n\(key)" } } })
}

public func fired(_ key: UInt64) -> Relay_V1_Envelope.OneOf_Body {
    .event(.with { $0.firedLocally = .with { $0.scheduleKey = key } })
}

