import Foundation
import RelayCore
import RelayLink
import RelayTestSupport
import RelayTransport
import RelayWire
import Synchronization
import Testing

/// One side's database across connections, shared with the accept loop.
final class SideStore: Sendable {
    private let state: Mutex<(side: DurableSide, sent: UInt64, completed: Bool)>

    init(_ side: DurableSide) {
        state = Mutex((side, 0, false))
    }

    var snapshot: (side: DurableSide, sent: UInt64, completed: Bool) { state.withLock { $0 } }

    func save(_ side: DurableSide, sent: UInt64, completed: Bool) {
        state.withLock { $0 = (side, sent, $0.completed || completed) }
    }
}

@Suite struct SimulatorTests {
    @Test func theShaperPacesByBandwidthAndCutsAtTheMTU() {
        let start = ContinuousClock.now
        var shaper = LinkShaper(conditions: LinkConditions(latency: .milliseconds(10), bytesPerSecond: 1_000, mtu: 100))
        let first = shaper.schedule(250, at: start)
        #expect(first.map(\.length) == [100, 100, 50])
        #expect(first.map { $0.arrival - start } == [.milliseconds(110), .milliseconds(210), .milliseconds(260)])
        // Bytes handed over while the link is busy queue behind the earlier ones.
        let second = shaper.schedule(10, at: start + .milliseconds(5))
        #expect(second.map { $0.arrival - start } == [.milliseconds(270)])
    }

    @Test func outagesAreWindowsFromTheStart() {
        let conditions = LinkConditions(outages: [Duration.seconds(1)..<Duration.seconds(2)])
        #expect(!conditions.inOutage(at: .milliseconds(999)))
        #expect(conditions.inOutage(at: .seconds(1)))
        #expect(!conditions.inOutage(at: .seconds(2)))
    }

    @Test func everyEntryArrivesOnceAndInOrderThroughDropsAndAnOutage() async throws {
        let directory = try TemporaryDirectory()
        let wearableEndpoint = TransportEndpoint.unix(path: directory.path + "/wearable.sock")
        let simulatorEndpoint = TransportEndpoint.unix(path: directory.path + "/simulator.sock")
        let phoneKey = StaticKeyPair.generate()
        let wearableKey = StaticKeyPair.generate()
        let total: UInt64 = 400
        let wearable = SideStore(DurableSide(epoch: 2))

        let (ready, readyContinuation) = AsyncStream<Void>.makeStream()
        let wearableTask = Task {
            try await Transport.listen(on: wearableEndpoint, ready: { _ in readyContinuation.yield() }) { connection in
                var (side, sent, _) = wearable.snapshot
                let outcome = try? await runSide(
                    over: connection, initiator: false, localKey: wearableKey, partnerKey: phoneKey.publicKey,
                    state: &side, sent: &sent, total: total, entry: fired)
                wearable.save(side, sent: sent, completed: outcome == .completed)
            }
        }
        defer { wearableTask.cancel() }
        let conditions = LinkConditions(
            latency: .milliseconds(1), bytesPerSecond: 400_000, mtu: 256, dropProbability: 0.02,
            outages: [Duration.milliseconds(200)..<Duration.milliseconds(500)], seed: 42)
        let simulatorTask = Task {
            try await LinkSimulator(conditions: conditions, upstream: wearableEndpoint)
                .run(on: simulatorEndpoint, ready: { _ in readyContinuation.yield() })
        }
        defer { simulatorTask.cancel() }
        var readyIterator = ready.makeAsyncIterator()
        _ = await readyIterator.next()
        _ = await readyIterator.next()

        var phone = DurableSide(epoch: 1)
        var sent: UInt64 = 0
        var connections = 0
        var phoneDone = false
        let deadline = ContinuousClock.now + .seconds(60)
        while !(phoneDone && wearable.snapshot.completed) {
            try #require(ContinuousClock.now < deadline, "no convergence: \(phone.received.count) at the phone, \(wearable.snapshot.side.received.count) at the wearable")
            guard let connection = try? await Transport.connect(to: simulatorEndpoint) else {
                try await Task.sleep(for: .milliseconds(10))  // reconnect backoff
                continue
            }
            connections += 1
            let outcome = try? await runSide(
                over: connection, initiator: true, localKey: phoneKey, partnerKey: wearableKey.publicKey, state: &phone,
                sent: &sent, total: total, entry: upsert)
            phoneDone = phoneDone || outcome == .completed
        }
        #expect(phone.received == Array(1...total))
        #expect(wearable.snapshot.side.received == Array(1...total))
        #expect(connections > 2, "the link never dropped; the test proved nothing")
    }
}
