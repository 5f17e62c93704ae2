import Foundation

/// Prints `relay-bench e2e`'s figures as Markdown tables (ready for Docs/BENCHMARKS.md), each
/// next to its target and whether it was met.
struct EndToEndReport {
    let benchmark: EndToEndBenchmark
    let results: EndToEndRun.Results
    let fsync: LatencyHistogram

    func print() {
        let b = benchmark
        Swift.print("""
            load: relay-bench posts Notify (a title unique to each, a body, the urgency hint, never \
            expiring) over \(b.connections) connections to a private dbus-daemon; relay-phone and \
            relay-wearable run in loopback mode, paired and locked as scripts/demo.sh does it. The time \
            is CLOCK_MONOTONIC read on the client connection's thread just before libdbus writes the \
            call to the bus (when Notify leaves the app), subtracted from the time relay-wearable \
            writes to its present trace (RELAY_PRESENT_TRACE) once the frame carrying the \
            notification is in its framebuffer; the stages below also give the time from the call in \
            relay-bench's task, which adds relay-bench's own hop to its connection's thread. Steady part: \(b.rate)/s for \(b.seconds) s, each sent \
            at its slot on the clock from a task of its own, after 1 s of warm-up not counted. Burst: \
            \(b.burst) calls in flight at once. Streams: \(b.workers) callers, one call at a time each.
            load average (1, 5, 15 min) at the end: \(Self.loadAverage)
            """)
        latency()
        stages()
        memory()
        idle()
        EndToEndFigures(benchmark: benchmark, results: results).record()
    }

    private func latency() {
        let steady = results.steady
        let burst = results.burst
        Swift.print("""

            Notify → pixels, present − send in ms
            | part | notifications | p50 / p99 / p99.9 / max | frames drawn | first send → last present | not drawn | target |
            | --- | --- | --- | --- | --- | --- | --- |
            """)
        let steadyMet = steady.latencies.percentile(0.5) <= 2 && steady.latencies.percentile(0.99) <= 10 && steady.missing == 0
        Swift.print(
            "| \(benchmark.rate)/s for \(benchmark.seconds) s | \(steady.samples.count) | \(steady.latencies.summary) | "
                + "\(steady.frames) | \(Self.seconds(steady.span)) | \(steady.missing) | p50 ≤ 2 ms, p99 ≤ 10 ms: \(Self.verdict(steadyMet)) |")
        // Coalescing is reported as notifications per frame rather than judged: the wearable
        // draws once per batch of link events, so it only coalesces when it falls behind.
        let burstMet = burst.span <= 2_000_000_000 && burst.missing == 0
        let perFrame = Double(burst.samples.count - burst.missing) / Double(max(1, burst.frames))
        Swift.print(
            "| burst of \(benchmark.burst) | \(burst.samples.count) | \(burst.latencies.summary) | \(burst.frames) "
                + String(format: "(%.1f per frame)", perFrame) + " | \(Self.seconds(burst.span)) | \(burst.missing) | "
                + "all within 2 s: \(Self.verdict(burstMet)); redraws coalesced: see frames |")
    }

    /// Where the steady part's time goes, from what can be seen outside the agents.
    private func stages() {
        let samples = results.steady.samples
        let roundTrips = LatencyHistogram(samples.map { $0.replied - $0.sent })
        let fromTask = LatencyHistogram(samples.compactMap { sample in
            results.steady.presented[sample.title].map { $0 - sample.called }
        })
        let hop = LatencyHistogram(samples.map { $0.sent - $0.called })
        let afterReply = LatencyHistogram(samples.compactMap { sample in
            results.steady.presented[sample.title].map { $0 - sample.replied }
        })
        Swift.print("""

            Where the steady part's time goes (ms; p50 / p99 / p99.9 / max)
            | stage | time |
            | --- | --- |
            | relay-bench's own hop, from the call in its task to its connection's thread writing it (not counted above) | \(hop.summary) |
            | Notify → pixels counted from the call in relay-bench's task (that hop included) | \(fromTask.summary) |
            | Notify round trip at the app: D-Bus both ways, the centre, relay-phone's SQLite commit (it replies after committing) | \(roundTrips.summary) |
            | reply → present: the link, relay-wearable's SQLite commit, the frame (overlaps the reply's way back) | \(afterReply.summary) |
            | one 4 KiB write + fdatasync in the state directory: what a commit adds when it is synced (synchronous = FULL) | \(fsync.summary) |
            """)
        let steady = results.steady
        let burst = results.burst
        // The steady part leaves every notification open, so the centre and the replica grow
        // through it: its first and last tenth show what their size costs.
        let tenth = max(1, samples.count / 10)
        let bySend = samples.sorted { $0.sent < $1.sent }
        let firstTenth = LatencyHistogram(bySend.prefix(tenth).compactMap { s in steady.presented[s.title].map { $0 - s.sent } })
        let lastTenth = LatencyHistogram(bySend.suffix(tenth).compactMap { s in steady.presented[s.title].map { $0 - s.sent } })
        Swift.print(String(
            format: "present − send, first tenth of the steady part (%d to %d open before it): p50 %.2f ms, p99 %.2f ms; last tenth (%d to %d open): p50 %.2f ms, p99 %.2f ms",
            benchmark.rate, benchmark.rate + tenth, firstTenth.percentile(0.5), firstTenth.percentile(0.99),
            benchmark.rate + samples.count - tenth, benchmark.rate + samples.count, lastTenth.percentile(0.5), lastTenth.percentile(0.99)))
        var parts = [
            ("the steady part", EndToEndRun.AgentsCPU(phone: steady.phoneCPU, wearable: steady.wearableCPU), steady.samples.count),
            ("the burst", EndToEndRun.AgentsCPU(phone: burst.phoneCPU, wearable: burst.wearableCPU), burst.samples.count),
            ("the stream closing old ones (each with its close)", results.closingCPU, benchmark.stream),
        ]
        if results.openPosted > 0 { parts.append(("the stream leaving all open", results.openCPU, results.openPosted)) }
        Swift.print("""

            CPU per notification (each agent's utime + stime over the part, divided by its notifications)
            | part | relay-phone µs | relay-wearable µs |
            | --- | --- | --- |
            """)
        for (name, cpu, count) in parts {
            Swift.print(String(
                format: "| %@ | %.0f | %.0f |", name, cpu.phone.seconds / Double(max(1, count)) * 1e6,
                cpu.wearable.seconds / Double(max(1, count)) * 1e6))
        }
    }

    private func memory() {
        Swift.print("""

            Resident memory: VmRSS (RssAnon + RssFile), MB = 10^6 bytes
            | point | relay-phone | relay-wearable | notifications on the wearable | notifications/s to reach it |
            | --- | --- | --- | --- | --- |
            """)
        for row in results.memory {
            let rate = row.rate.map { String(format: "%.0f", $0) } ?? "—"
            Swift.print("| \(row.label) | \(Self.megabytes(row.phone)) | \(Self.megabytes(row.wearable)) | \(row.wearableNotifications) | \(rate) |")
        }
        let closing = results.memory.filter { $0.label.hasPrefix("stream closing") }
        if let first = closing.first, let last = closing.last {
            // A figure that could not be read counts as missing the target.
            let phoneMax = closing.map { $0.phone?.total ?? .max }.max() ?? .max
            let wearableMax = closing.map { $0.wearable?.total ?? .max }.max() ?? .max
            let met = phoneMax <= 32_000_000 / 1024 && wearableMax <= 24_000_000 / 1024
            Swift.print(
                "stream closing old ones (at most \(benchmark.keepOpen) live): from \(first.label.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") "
                    + "to \(last.label.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? ""), relay-phone \(Self.growth(first.phone, last.phone)), "
                    + "relay-wearable \(Self.growth(first.wearable, last.wearable)); "
                    + "target wearable ≤ 24 MB, phone ≤ 32 MB: \(Self.verdict(met)); \(results.streamMissing) not drawn")
        }
        if benchmark.open > 0 {
            var line = "stream leaving all open: \(results.openPosted) of \(benchmark.open) posted"
            if results.openStopped { line += " (stopped at --open-limit \(benchmark.openLimit) s)" }
            if let rates = results.openRates {
                line += String(format: "; replies per second for the first 1,000 %.0f, for the last 1,000 %.0f", rates.first, rates.last)
            }
            Swift.print(line + "; \(results.openMissing) not drawn")
        }
    }

    private func idle() {
        let scale = 60 / Double(max(1, results.idleSeconds))
        let phone = results.idlePhone.seconds * 1000 * scale
        let wearable = results.idleWearable.seconds * 1000 * scale
        Swift.print("""

            CPU while idle (utime + stime from /proc/PID/stat, 10 ms ticks), over \(results.idleSeconds) s after the stream
            | agent | CPU ms per idle minute | target |
            | --- | --- | --- |
            | relay-phone | \(String(format: "%.0f", phone)) | ≤ 50 ms: \(Self.verdict(phone <= 50)) |
            | relay-wearable | \(String(format: "%.0f", wearable)) | ≤ 50 ms: \(Self.verdict(wearable <= 50)) |
            """)
    }

    private static func verdict(_ met: Bool) -> String { met ? "met" : "**missed**" }

    private static func seconds(_ nanoseconds: Int64) -> String {
        String(format: "%.2f s", Double(nanoseconds) / 1e9)
    }

    private static func megabytes(_ resident: ProcessResident?) -> String {
        guard let resident else { return "?" }
        return String(
            format: "%.1f (%.1f + %.1f)", Double(resident.total) * 1024 / 1e6, Double(resident.anonymous) * 1024 / 1e6,
            Double(resident.file) * 1024 / 1e6)
    }

    private static func growth(_ from: ProcessResident?, _ to: ProcessResident?) -> String {
        guard let from = from?.total, let to = to?.total else { return "?" }
        return String(format: "%.1f → %.1f MB (%+.1f)", Double(from) * 1024 / 1e6, Double(to) * 1024 / 1e6, Double(to - from) * 1024 / 1e6)
    }

    /// `/proc/loadavg`'s first three fields.
    static var loadAverage: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return text.split(separator: " ").prefix(3).joined(separator: ", ")
    }
}
