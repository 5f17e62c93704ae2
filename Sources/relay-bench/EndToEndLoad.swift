import Foundation
import Synchronization

/// The load of `relay-bench e2e`: `Notify` calls from several D-Bus connections to relay-phone,
/// each with a unique title and its send time on `CLOCK_MONOTONIC`, and the wearable's
/// present trace to see when each reached the framebuffer.
struct EndToEndLoad: Sendable {
    /// One notification sent.
    struct Sample: Sendable {
        var title: String
        /// `CLOCK_MONOTONIC` on the connection's thread just before libdbus wrote the call to
        /// the bus: when `Notify` left the app.
        var sent: Int64
        /// `CLOCK_MONOTONIC` in the task that made the call, before relay-bench's hop to its
        /// connection's thread.
        var called: Int64
        /// `CLOCK_MONOTONIC` when relay-phone's reply arrived (it replies after its commit).
        var replied: Int64
        /// relay-phone's id for it.
        var id: UInt32
    }

    let clients: [NotifyClient]
    let trace: PresentTraceReader

    /// Posts one notification from `client`, timing it.
    func post(_ title: String, from client: NotifyClient) async throws -> Sample {
        let called = MonotonicClock.nanoseconds()
        let sent = Atomic<Int64>(0)
        let id = try await client.notify(title: title) { sent.store(MonotonicClock.nanoseconds(), ordering: .relaxed) }
        return Sample(
            title: title, sent: sent.load(ordering: .relaxed), called: called, replied: MonotonicClock.nanoseconds(), id: id)
    }

    /// `count` notifications at `rate` per second. Each is sent at its slot on the clock
    /// (start + index / rate), on a task of its own, so a slow reply never delays the next
    /// send and the pace does not drift.
    func paced(_ prefix: String, count: Int, rate: Int) async throws -> [Sample] {
        let interval = Duration.nanoseconds(1_000_000_000 / Int64(rate))
        let start = ContinuousClock.now
        return try await withThrowingTaskGroup(of: Sample.self) { group in
            for index in 0..<count {
                try await Task.sleep(until: start + interval * index, clock: .continuous)
                let client = clients[index % clients.count]
                group.addTask { try await post("\(prefix)-\(index)", from: client) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// `count` notifications at once: every call is in flight together, spread over the
    /// connections (a bus limits the replies one connection may await).
    func burst(_ prefix: String, count: Int) async throws -> [Sample] {
        try await withThrowingTaskGroup(of: Sample.self) { group in
            for index in 0..<count {
                let client = clients[index % clients.count]
                group.addTask { try await post("\(prefix)-\(index)", from: client) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Closes every id, `workers` calls in flight.
    func close(_ ids: [UInt32], workers: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                let client = clients[worker % clients.count]
                group.addTask {
                    for index in stride(from: worker, to: ids.count, by: workers) { try await client.close(ids[index]) }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Posts a notification and waits (up to `timeout`) until the wearable has drawn it. The
    /// link keeps the phone's order, so everything sent before it has been applied by then.
    func fence(_ title: String, timeout: Duration = .seconds(120)) async throws -> Sample {
        let sample = try await post(title, from: clients[0])
        guard await trace.waitForPresentation(of: title, until: .now + timeout) != nil else {
            throw BenchError("the wearable did not draw '\(title)' within \(timeout); see the agents' state in the benchmark's directory")
        }
        return sample
    }

    /// What a stream of notifications did.
    struct Streamed: Sendable {
        var samples: [Sample]
        /// Workers' open ids, oldest first, carried to the next part of the stream.
        var open: [[UInt32]]
        /// Whether the stream stopped at its deadline before posting everything.
        var stoppedAtDeadline: Bool
    }

    /// Posts the notifications `indices` from `open.count` workers, each posting its share one
    /// after the other. With `keepOpen`, each worker closes its oldest notification once it
    /// holds more than that many, so the centre and the replica stay small however long the
    /// stream; without it everything stays. Stops posting at `deadline`.
    func stream(
        _ prefix: String, _ indices: Range<Int>, open: [[UInt32]], keepOpen: Int?, deadline: ContinuousClock.Instant
    ) async throws -> Streamed {
        let workers = open.count
        return try await withThrowingTaskGroup(of: (Int, [Sample], [UInt32], Bool).self) { group in
            for worker in 0..<workers {
                let client = clients[worker % clients.count]
                let initiallyHeld = open[worker]
                group.addTask {
                    var held = initiallyHeld
                    var samples: [Sample] = []
                    for index in stride(from: indices.lowerBound + worker, to: indices.upperBound, by: workers) {
                        if ContinuousClock.now >= deadline { return (worker, samples, held, true) }
                        let sample = try await post("\(prefix)-\(index)", from: client)
                        samples.append(sample)
                        held.append(sample.id)
                        if let keepOpen, held.count > keepOpen { try await client.close(held.removeFirst()) }
                    }
                    return (worker, samples, held, false)
                }
            }
            var result = Streamed(samples: [], open: open, stoppedAtDeadline: false)
            for try await (worker, samples, held, stopped) in group {
                result.samples += samples
                result.open[worker] = held
                result.stoppedAtDeadline = result.stoppedAtDeadline || stopped
            }
            return result
        }
    }
}
