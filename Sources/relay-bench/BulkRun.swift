import Foundation
import RelayTestSupport

/// The phases of `relay-bench bulk` on one pair of agents joined by the link simulator: text
/// notifications at a steady rate over an idle link, then the same stream while image
/// attachments keep the link's bulk channel busy.
struct BulkRun {
    /// One phase's text notifications and how long each took to reach the wearable's pixels.
    struct Phase: Sendable {
        var samples: [EndToEndLoad.Sample]
        /// When each title was presented (`CLOCK_MONOTONIC` nanoseconds).
        var presented: [String: Int64]
        /// Present − send, in nanoseconds, of those presented.
        var latencies: LatencyHistogram
        var missing: Int

        /// The `Notify` round trips at the app (relay-phone replies after its commit), in nanoseconds.
        var roundTrips: LatencyHistogram { LatencyHistogram(samples.map { $0.replied - $0.sent }) }

        /// Reply → present, in nanoseconds: the link, the wearable's commit and the frame.
        var afterReply: LatencyHistogram {
            LatencyHistogram(samples.compactMap { sample in presented[sample.title].map { $0 - sample.replied } })
        }

        /// First send to last send, in nanoseconds: the window the phase measured.
        var window: ClosedRange<Int64> {
            let sends = samples.map(\.sent)
            return (sends.min() ?? 0)...(sends.max() ?? 0)
        }
    }

    /// What the run measured.
    struct Results: Sendable {
        var idle: Phase
        var loaded: Phase
        /// The images carried while (and just after) the loaded phase ran.
        var transfers: [AttachmentFeeder.Transfer]
    }

    let benchmark: BulkBenchmark
    let agents: LoopbackAgents
    let bus: PrivateBus
    let trace: PresentTraceReader
    /// Where the images are written.
    let imageDirectory: String

    func run() async throws -> Results {
        let clients = try await agents.pairedAndLocked(connections: benchmark.connections, on: bus)
        let load = EndToEndLoad(clients: clients, trace: trace)

        // One second at the rate, not counted: the first notifications pay for caches and pages.
        let warmUp = try await load.paced("bulk-warm", count: benchmark.rate, rate: benchmark.rate)
        _ = await trace.waitForPresentations(of: warmUp.map(\.title), until: .now + .seconds(60))

        let idle = try await phase { try await load.paced("idle", count: benchmark.count, rate: benchmark.rate) }

        // The images come from a connection of their own, so a text notification never waits
        // behind an image's Notify call (the phone reads and re-encodes the image first).
        let feeder = try AttachmentFeeder(
            directory: imageDirectory, side: benchmark.imageSide, wearableSocket: agents.wearableSocket,
            client: NotifyClient(connection: try await bus.connect()), timeout: benchmark.imageTimeout)
        let stop = Gate()
        async let transfers = feeder.run(until: stop)
        // The measured stream starts once the first image is on its way (or the feeder failed,
        // which `transfers` then reports).
        await feeder.firstInFlight.wait()
        let loaded: Phase
        do {
            loaded = try await phase { try await load.paced("loaded", count: benchmark.count, rate: benchmark.rate) }
        } catch {
            stop.open()
            _ = try? await transfers
            throw error
        }
        stop.open()
        return Results(idle: idle, loaded: loaded, transfers: try await transfers)
    }

    /// Sends a phase's notifications, then waits (up to two minutes) for the wearable to draw them.
    private func phase(_ send: () async throws -> [EndToEndLoad.Sample]) async throws -> Phase {
        let samples = try await send()
        _ = await trace.waitForPresentations(of: samples.map(\.title), until: .now + .seconds(120))
        var presented: [String: Int64] = [:]
        for sample in samples { presented[sample.title] = trace.presentation(of: sample.title) }
        return Phase(
            samples: samples, presented: presented,
            latencies: LatencyHistogram(samples.compactMap { sample in presented[sample.title].map { $0 - sample.sent } }),
            missing: samples.count - presented.count)
    }
}
