import NIOCore
import NIOPosix
import RelayCore
import Synchronization

/// A proxy that sits between two agents and behaves like a real radio link: latency,
/// bandwidth, MTU, random drops and scheduled outages (`LinkConditions`).
///
/// The initiating agent connects to the simulator's endpoint instead of the other
/// agent's; the simulator connects onwards to `upstream` for each connection.
public struct LinkSimulator: Sendable {
    /// What the link does to traffic.
    public let conditions: LinkConditions
    /// Where connections are forwarded.
    public let upstream: TransportEndpoint
    /// Outages begun and ended by hand, beside the scheduled ones.
    public let outage: OutageSwitch

    /// Creates a simulator forwarding to `upstream`.
    public init(conditions: LinkConditions, upstream: TransportEndpoint, outage: OutageSwitch = OutageSwitch()) {
        self.conditions = conditions
        self.upstream = upstream
        self.outage = outage
    }

    /// Serves on `endpoint` until the task is cancelled. `ready` gets the bound endpoint
    /// (with the real port for `tcp:127.0.0.1:0`).
    public func run(on endpoint: TransportEndpoint, ready: @Sendable (TransportEndpoint) async -> Void) async throws {
        let start = ContinuousClock.now
        let drops = DropDice(seed: conditions.seed, probability: conditions.dropProbability)
        try await Transport.listen(on: endpoint, ready: ready) { client in
            let offset = ContinuousClock.now - start
            guard !conditions.inOutage(at: offset), !outage.isActive, let server = try? await Transport.connect(to: upstream) else {
                await client.close()  // refused: closed at once
                return
            }
            await relay(client: client.channel, server: server.channel, start: start, drops: drops)
        }
    }

    /// Moves bytes both ways until either side closes, a drop is drawn or an outage begins.
    private func relay(
        client: NIOAsyncChannel<ByteBuffer, ByteBuffer>, server: NIOAsyncChannel<ByteBuffer, ByteBuffer>,
        start: ContinuousClock.Instant, drops: DropDice
    ) async {
        try? await client.executeThenClose { clientIn, clientOut in
            try await server.executeThenClose { serverIn, serverOut in
                await withTaskGroup(of: PumpEnd.self) { group in
                    group.addTask { await pump(from: clientIn, to: serverOut, start: start, drops: drops) }
                    group.addTask { await pump(from: serverIn, to: clientOut, start: start, drops: drops) }
                    group.addTask { await waitForOutage(after: start); return .cut }
                    group.addTask { await outage.waitForOutage(); return .cut }
                    // The first close, drop or outage ends the connection: both sides see it
                    // closed at once, as when a radio link goes. A write that failed because its
                    // receiver closed does not: that receiver's own direction ends once what it
                    // sent before closing has arrived (a graceful close delivers its last words).
                    var receiversGone = 0
                    while let end = await group.next(), end == .receiverGone {
                        receiversGone += 1
                        if receiversGone == 2 { break }
                    }
                    group.cancelAll()
                    client.channel.close(promise: nil)
                    server.channel.close(promise: nil)
                }
            }
        }
    }

    /// One direction: bytes are taken from the sender only as fast as the link sends them (the
    /// backlog stays in the sender's socket, as on a radio), and each segment is delivered a
    /// latency after it was sent, by a delay line of its own, so that the latency of one
    /// segment overlaps the sending of the next.
    /// Why a direction, or the whole connection, ended.
    private enum PumpEnd: Sendable, Equatable {
        /// The sender closed, and all it sent was delivered.
        case senderClosed
        /// A write failed: the receiver is gone.
        case receiverGone
        /// A drop was drawn, or an outage began.
        case cut
    }

    private func pump(
        from inbound: NIOAsyncChannelInboundStream<ByteBuffer>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        start: ContinuousClock.Instant, drops: DropDice
    ) async -> PumpEnd {
        let (line, sink) = AsyncStream<(arrival: ContinuousClock.Instant, bytes: ByteBuffer)>.makeStream()
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var shaper = LinkShaper(conditions: conditions)
                defer { sink.finish() }
                do {
                    for try await var buffer in inbound {
                        for segment in shaper.schedule(buffer.readableBytes, at: .now) {
                            guard let slice = buffer.readSlice(length: segment.length) else { return }
                            sink.yield((segment.arrival, slice))
                        }
                        // The link is busy sending until then; the sender's next bytes wait in its socket.
                        if let sent = shaper.sentBy { try await ContinuousClock().sleep(until: sent) }
                    }
                } catch {
                    return
                }
            }
            // What was sent before the sender closed still arrives; a drop or a failed write
            // ends the direction at once.
            var end = PumpEnd.senderClosed
            do {
                for await segment in line {
                    try await ContinuousClock().sleep(until: segment.arrival)
                    try await outbound.write(segment.bytes)
                    if drops.roll() {
                        end = .cut
                        break
                    }
                }
            } catch {
                end = Task.isCancelled ? .cut : .receiverGone
            }
            group.cancelAll()
            return end
        }
    }

    private func waitForOutage(after start: ContinuousClock.Instant) async {
        let now = ContinuousClock.now - start
        guard let next = conditions.outages.map(\.lowerBound).filter({ $0 > now }).min() else {
            // No outage ahead: wait until cancelled.
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return
        }
        try? await ContinuousClock().sleep(until: start + next)
    }
}

/// Seeded, shared random drops.
final class DropDice: Sendable {
    private let state: Mutex<SplitMix64>
    private let probability: Double

    init(seed: UInt64, probability: Double) {
        state = Mutex(SplitMix64(state: seed))
        self.probability = probability
    }

    /// Whether to drop now.
    func roll() -> Bool {
        guard probability > 0 else { return false }
        return state.withLock { generator in Double.random(in: 0..<1, using: &generator) < probability }
    }
}
