import Foundation
import RelayTestSupport

/// The parts of `relay-bench e2e`, one after the other on one pair of agents: the steady
/// rate, the burst, closing everything, the stream that closes old notifications (memory),
/// idling (CPU), and the stream that leaves everything open (memory with a large replica).
struct EndToEndRun {
    /// One part's notifications and what they cost.
    struct Part {
        var samples: [EndToEndLoad.Sample]
        /// When each title was presented (`CLOCK_MONOTONIC` nanoseconds).
        var presented: [String: Int64]
        /// Present − send, in nanoseconds, of those presented.
        var latencies: LatencyHistogram
        /// Distinct present times: the frames that carried them.
        var frames: Int
        var missing: Int
        /// First send to last present, in nanoseconds.
        var span: Int64
        /// CPU time of each agent during the part.
        var phoneCPU: Duration
        var wearableCPU: Duration
    }

    /// Both agents' memory at one point.
    struct MemoryRow {
        var label: String
        var phone: ProcessResident?
        var wearable: ProcessResident?
        /// Notifications on the wearable's screen, as `relayctl status` reports them.
        var wearableNotifications: String
        /// Notifications per second of the stream part that led here, if any.
        var rate: Double?
    }

    /// The results of a whole run.
    struct Results {
        var steady: Part
        var burst: Part
        var memory: [MemoryRow] = []
        var streamMissing = 0
        /// Both agents' CPU time through the stream that closes old ones, and through the one that does not.
        var closingCPU = AgentsCPU()
        var openCPU = AgentsCPU()
        var idlePhone: Duration = .zero
        var idleWearable: Duration = .zero
        var idleSeconds = 0
        /// The open stream: notifications posted, whether it hit its limit, and its rate for
        /// the first and the last thousand.
        var openPosted = 0
        var openStopped = false
        var openMissing = 0
        var openRates: (first: Double, last: Double)?
    }

    /// CPU time each agent used over some stretch.
    struct AgentsCPU {
        var phone: Duration = .zero
        var wearable: Duration = .zero
    }

    let benchmark: EndToEndBenchmark
    let agents: LoopbackAgents
    let bus: PrivateBus
    let trace: PresentTraceReader

    func run() async throws -> Results {
        let clients = try await agents.pairedAndLocked(connections: benchmark.connections, on: bus)
        let load = EndToEndLoad(clients: clients, trace: trace)
        var memory = [try await memoryRow("paired and locked, nothing posted yet")]

        // One second at the rate, not counted: the first notifications pay for caches and pages.
        let warmUp = try await load.paced("warm", count: benchmark.rate, rate: benchmark.rate)
        _ = await trace.waitForPresentations(of: warmUp.map(\.title), until: .now + .seconds(60))

        let steady = try await part { try await load.paced("rate", count: benchmark.rate * benchmark.seconds, rate: benchmark.rate) }
        let burst = try await part { try await load.burst("burst", count: benchmark.burst) }
        memory.append(try await memoryRow("after the steady part and the burst (all open)"))

        // Back to an empty centre before the stream: closed in the phone's order, so the fence's
        // presentation means every removal before it reached the wearable.
        try await load.close((warmUp + steady.samples + burst.samples).map(\.id), workers: benchmark.workers)
        try await clients[0].close(try await load.fence("fence-closed").id)
        memory.append(try await memoryRow("everything closed again"))

        var results = Results(steady: steady, burst: burst)
        try await closingStream(load, into: &results, memory: &memory)
        try await idle(into: &results)
        if benchmark.open > 0 { try await openStream(load, into: &results, memory: &memory) }
        results.memory = memory
        return results
    }

    /// Runs a part, then waits (up to a minute) for the wearable to draw every notification of it.
    private func part(_ send: () async throws -> [EndToEndLoad.Sample]) async throws -> Part {
        let phoneBefore = ProcessCPU.time(of: agents.phone.pid) ?? .zero
        let wearableBefore = ProcessCPU.time(of: agents.wearable.pid) ?? .zero
        let samples = try await send()
        _ = await trace.waitForPresentations(of: samples.map(\.title), until: .now + .seconds(60))
        let phoneCPU = (ProcessCPU.time(of: agents.phone.pid) ?? .zero) - phoneBefore
        let wearableCPU = (ProcessCPU.time(of: agents.wearable.pid) ?? .zero) - wearableBefore
        var presented: [String: Int64] = [:]
        for sample in samples { presented[sample.title] = trace.presentation(of: sample.title) }
        let firstSend = samples.map(\.sent).min() ?? 0
        return Part(
            samples: samples, presented: presented,
            latencies: LatencyHistogram(samples.compactMap { sample in presented[sample.title].map { $0 - sample.sent } }),
            frames: Set(presented.values).count, missing: samples.count - presented.count,
            span: (presented.values.max() ?? firstSend) - firstSend, phoneCPU: phoneCPU, wearableCPU: wearableCPU)
    }

    /// The stream that closes its oldest notifications, with memory read at 1,000, 2,000,
    /// 5,000 and at its end, once the wearable has drawn everything posted so far.
    private func closingStream(_ load: EndToEndLoad, into results: inout Results, memory: inout [MemoryRow]) async throws {
        let checkpoints = [1_000, 2_000, 5_000].filter { $0 < benchmark.stream } + [benchmark.stream]
        var open = [[UInt32]](repeating: [], count: benchmark.workers)
        var done = 0
        let before = cpu()
        defer { results.closingCPU = cpu(since: before) }
        for checkpoint in checkpoints {
            let start = ContinuousClock.now
            let streamed = try await load.stream(
                "stream", done..<checkpoint, open: open, keepOpen: benchmark.keepOpen / benchmark.workers,
                deadline: .now + .seconds(3_600))
            open = streamed.open
            let missing = await trace.waitForPresentations(of: streamed.samples.map(\.title), until: .now + .seconds(120))
            results.streamMissing += missing.count
            let rate = Double(checkpoint - done) / (ContinuousClock.now - start).seconds
            memory.append(try await memoryRow("stream closing old ones: \(checkpoint) posted", rate: rate))
            done = checkpoint
        }
    }

    /// CPU time of both agents over `--idle-seconds` of nothing happening, after a few seconds
    /// for what the stream left behind (acknowledgements, checkpoints) to settle.
    private func idle(into results: inout Results) async throws {
        try await Task.sleep(for: .seconds(5))
        let phoneBefore = ProcessCPU.time(of: agents.phone.pid)
        let wearableBefore = ProcessCPU.time(of: agents.wearable.pid)
        // This wait is the measurement: the agents are left alone for this long.
        try await Task.sleep(for: .seconds(benchmark.idleSeconds))
        guard let phoneBefore, let wearableBefore, let phoneAfter = ProcessCPU.time(of: agents.phone.pid),
            let wearableAfter = ProcessCPU.time(of: agents.wearable.pid)
        else { throw BenchError("an agent stopped while idling; run it by hand to see why") }
        results.idlePhone = phoneAfter - phoneBefore
        results.idleWearable = wearableAfter - wearableBefore
        results.idleSeconds = benchmark.idleSeconds
    }

    /// Posts `--open` notifications and closes none, up to `--open-limit` seconds.
    private func openStream(_ load: EndToEndLoad, into results: inout Results, memory: inout [MemoryRow]) async throws {
        let start = ContinuousClock.now
        let before = cpu()
        defer { results.openCPU = cpu(since: before) }
        let streamed = try await load.stream(
            "open", 0..<benchmark.open, open: [[UInt32]](repeating: [], count: benchmark.workers), keepOpen: nil,
            deadline: start + .seconds(benchmark.openLimit))
        let missing = await trace.waitForPresentations(
            of: streamed.samples.map(\.title), until: .now + .seconds(max(120, benchmark.openLimit)))
        results.openPosted = streamed.samples.count
        results.openStopped = streamed.stoppedAtDeadline
        results.openMissing = missing.count
        let replies = streamed.samples.map(\.replied).sorted()
        if replies.count >= 2_000 {
            let first = Double(999) / (Double(replies[999] - replies[0]) / 1e9)
            let last = Double(999) / (Double(replies[replies.count - 1] - replies[replies.count - 1_000]) / 1e9)
            results.openRates = (first, last)
        }
        let rate = Double(streamed.samples.count) / (ContinuousClock.now - start).seconds
        memory.append(try await memoryRow("stream leaving all open: \(streamed.samples.count) posted", rate: rate))
    }

    /// Both agents' CPU time so far (zero for one that is gone).
    private func cpu() -> AgentsCPU {
        AgentsCPU(phone: ProcessCPU.time(of: agents.phone.pid) ?? .zero, wearable: ProcessCPU.time(of: agents.wearable.pid) ?? .zero)
    }

    private func cpu(since before: AgentsCPU) -> AgentsCPU {
        let now = cpu()
        return AgentsCPU(phone: now.phone - before.phone, wearable: now.wearable - before.wearable)
    }

    private func memoryRow(_ label: String, rate: Double? = nil) async throws -> MemoryRow {
        MemoryRow(
            label: label, phone: ProcessResident(of: agents.phone.pid), wearable: ProcessResident(of: agents.wearable.pid),
            wearableNotifications: try await agents.wearableStatus("notifications") ?? "?", rate: rate)
    }
}
