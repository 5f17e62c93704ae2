public import Foundation
public import RelayLink
public import RelayTransport
public import RelayWire

/// How one connection of a test side ended.
public enum RunOutcome: Sendable, Equatable {
    /// Everything was sent, acknowledged and received.
    case completed
    /// The connection closed or failed before that.
    case disconnected(LinkFailure?)
}

/// Runs one side of a link over a real connection: the handshake, then the session,
/// sending `total` entries made by `entry` and receiving the peer's, with `state` as
/// its database, and expecting `expecting` entries from the peer (by default as many as it
/// sends). Returns when the goal is met or the connection ends.
public func runSide(
    over connection: FramedConnection, initiator: Bool, localKey: StaticKeyPair, partnerKey: Data,
    state: inout DurableSide, sent: inout UInt64, total: UInt64,
    entry: @escaping (UInt64) -> Relay_V1_Envelope.OneOf_Body, expecting: UInt64? = nil
) async throws -> RunOutcome {
    let expected = Int(expecting ?? total)
    return try await connection.run { reader, writer -> RunOutcome in
        var handshake =
            initiator
            ? LinkHandshake(initiating: .session(partnerKey: partnerKey), localKey: localKey)
            : LinkHandshake(responding: .init(pairable: false, partnerKey: partnerKey), localKey: localKey)
        var leftovers: [Data] = []
        var established = false
        try await writer.write(sends(handshake.start()))
        handshakeLoop: while !established {
            guard let batch = try await reader.nextBatch() else { return .disconnected(nil) }
            for (index, frame) in batch.enumerated() {
                let steps = handshake.receive(frame)
                try await writer.write(sends(steps))
                if case .failed(let failure)? = steps.last { return .disconnected(failure) }
                if steps.contains(.established) {
                    established = true
                    leftovers = Array(batch[(index + 1)...])
                    continue handshakeLoop
                }
            }
        }
        var session = LinkSession(
            link: try handshake.finish(), hello: .with { $0.role = initiator ? .phone : .wearable }, logs: state.logs,
            liveness: LivenessMonitor(now: .now))
        var out = perform(session.start(), on: &session, state: &state)
        while sent < total {
            sent += 1
            let body = entry(sent)
            state.pending.append(.init(seq: state.nextSeq, body: body))
            out.frames += perform(session.enqueue(body), on: &session, state: &state).frames
        }
        try await writer.write(out.frames)
        var batch = leftovers
        while true {
            var frames: [Data] = []
            for frame in batch {
                let result = perform(session.receive(frame, at: .now), on: &session, state: &state)
                frames += result.frames
                if let failure = result.failures.first {
                    try? await writer.write(frames)
                    return .disconnected(failure)
                }
            }
            frames += perform(session.flushAcknowledgement(), on: &session, state: &state).frames
            try await writer.write(frames)
            if state.received.count == expected, state.pending.isEmpty, sent == total { return .completed }
            guard let next = try await reader.nextBatch() else { return .disconnected(nil) }
            batch = next
        }
    }
}

private func sends(_ steps: [LinkHandshake.Step]) -> [Data] {
    steps.compactMap { if case .send(let frame) = $0 { frame } else { nil } }
}
