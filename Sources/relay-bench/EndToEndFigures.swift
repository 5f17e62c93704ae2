import Foundation
import RelayCore

/// `relay-bench e2e`'s figures for the summary table and Docs/BENCHMARKS.md (FigureLog), each
/// against its budget (the design's §9). EndToEndReport prints the full tables.
struct EndToEndFigures {
    let benchmark: EndToEndBenchmark
    let results: EndToEndRun.Results

    private let section = "e2e"
    /// Growth of resident memory over the closing stream that still counts as flat: allocator
    /// and page-cache noise is about a megabyte either way.
    private let flatKilobytes = 2_000_000 / 1024
    /// Growth of anonymous memory per 1,000 notifications over the closing stream that still
    /// counts as none: 32 bytes a notification. The 2 MB above hid a leak of about 100.
    private let leakKilobytesPerThousand = 32.0

    func record() {
        latency()
        memory()
        cpu()
    }

    private func latency() {
        let steady = results.steady
        let burst = results.burst
        let steadyMet = steady.latencies.percentile(0.5) <= 2 && steady.latencies.percentile(0.99) <= 10 && steady.missing == 0
        FigureLog.record(
            section, "\(benchmark.rate)/s for \(benchmark.seconds) s, present − send p50 / p99 / p99.9 / max ms",
            steady.latencies.summary + missing(steady.missing), target: "p50 ≤ 2, p99 ≤ 10", met: steadyMet)
        let roundTrips = LatencyHistogram(steady.samples.map { $0.replied - $0.sent })
        let afterReply = LatencyHistogram(steady.samples.compactMap { sample in steady.presented[sample.title].map { $0 - sample.replied } })
        let fromTask = LatencyHistogram(steady.samples.compactMap { sample in steady.presented[sample.title].map { $0 - sample.called } })
        FigureLog.record(
            section, "… the same counted from the call in relay-bench's task (its hop to its D-Bus thread included)", fromTask.summary)
        FigureLog.record(section, "… of which the Notify round trip at the app (relay-phone's synced commit included)", roundTrips.summary)
        FigureLog.record(section, "… and reply → pixels (the link, the wearable's commit, the frame; its sync runs alongside)", afterReply.summary)
        FigureLog.record(
            section, "burst of \(FigureFormat.grouped(benchmark.burst)): first send → last present", String(format: "%.2f s", Double(burst.span) / 1e9)
                + missing(burst.missing), target: "≤ 2 s, none lost", met: burst.span <= 2_000_000_000 && burst.missing == 0)
        FigureLog.record(section, "burst: present − send p50 / p99 / p99.9 / max ms", burst.latencies.summary, summary: true)
        let drawn = burst.samples.count - burst.missing
        FigureLog.record(
            section, "burst: frames drawn for \(FigureFormat.grouped(drawn)) notifications",
            "\(burst.frames) (" + String(format: "%.1f", Double(drawn) / Double(max(1, burst.frames))) + " per frame)",
            target: "redraws coalesced", summary: true)
    }

    private func memory() {
        if let start = results.memory.first {
            FigureLog.record(
                section, "RSS paired, nothing posted: relay-phone / relay-wearable MB (file-backed part)",
                "\(megabytes(start.phone)) / \(megabytes(start.wearable))", target: "≤ 32 / ≤ 24",
                met: fits(start.phone, 32) && fits(start.wearable, 24))
        }
        let closing = results.memory.filter { $0.label.hasPrefix("stream closing") }
        // The rows are read at 1,000, 2,000, 5,000 and the stream's end (EndToEndRun.closingStream).
        let firstCheckpoint = FigureFormat.grouped(min(1_000, benchmark.stream))
        if let first = closing.first, let last = closing.last {
            let flat = grows(first.phone, last.phone) == false && grows(first.wearable, last.wearable) == false
            FigureLog.record(
                section, "RSS through a stream of \(FigureFormat.grouped(benchmark.stream)) (≤ \(benchmark.keepOpen) live), "
                    + "from \(firstCheckpoint) posted to the end: relay-phone / relay-wearable MB",
                "\(change(first.phone, last.phone)) / \(change(first.wearable, last.wearable))" + missing(results.streamMissing),
                target: "flat (within 2 MB)", met: flat && results.streamMissing == 0)
            let posted = Double(max(1, benchmark.stream - min(1_000, benchmark.stream))) / 1000
            let phoneGrowth = anonymousGrowth(first.phone, last.phone).map { $0 / posted }
            let wearableGrowth = anonymousGrowth(first.wearable, last.wearable).map { $0 / posted }
            FigureLog.record(
                section, "anonymous memory through that stream, growth per 1,000 notifications: relay-phone / relay-wearable KB",
                [phoneGrowth, wearableGrowth].map { $0.map { String(format: "%.1f", $0) } ?? "?" }.joined(separator: " / "),
                target: "≤ \(Int(leakKilobytesPerThousand)) (no leak)",
                met: [phoneGrowth, wearableGrowth].allSatisfy { ($0 ?? .infinity) <= leakKilobytesPerThousand })
            FigureLog.record(
                section, "RSS after \(FigureFormat.grouped(benchmark.stream)) notifications: relay-phone / relay-wearable MB",
                "\(megabytes(last.phone)) / \(megabytes(last.wearable))", target: "≤ 32 / ≤ 24",
                met: fits(last.phone, 32) && fits(last.wearable, 24))
        }
        if benchmark.open > 0, let open = results.memory.last, open.label.hasPrefix("stream leaving") {
            FigureLog.record(
                section,
                "RSS with \(FigureFormat.grouped(results.openPosted)) more posted and none closed (the phone keeps an app's newest "
                    + "\(FigureFormat.grouped(ModelLimits.deliveredPerApp))): relay-phone / relay-wearable MB",
                "\(megabytes(open.phone)) / \(megabytes(open.wearable))" + missing(results.openMissing))
        }
    }

    private func cpu() {
        let scale = 60 / Double(max(1, results.idleSeconds))
        let phone = results.idlePhone.seconds * 1000 * scale
        let wearable = results.idleWearable.seconds * 1000 * scale
        FigureLog.record(
            section, "CPU per idle minute (over \(results.idleSeconds) s): relay-phone / relay-wearable ms",
            String(format: "%.0f / %.0f", phone, wearable), target: "≤ 50", met: phone <= 50 && wearable <= 50)
        let steady = results.steady
        let count = Double(max(1, steady.samples.count))
        FigureLog.record(
            section, "CPU per notification in the steady part: relay-phone / relay-wearable µs",
            String(format: "%.0f / %.0f", steady.phoneCPU.seconds / count * 1e6, steady.wearableCPU.seconds / count * 1e6))
    }

    private func missing(_ count: Int) -> String { count == 0 ? "" : "; \(count) not drawn" }

    /// "36.2 (32.4)": VmRSS with its file-backed part, MB.
    private func megabytes(_ resident: ProcessResident?) -> String {
        guard let resident else { return "?" }
        return String(format: "%.1f (%.1f)", Double(resident.total) * 1024 / 1e6, Double(resident.file) * 1024 / 1e6)
    }

    private func change(_ from: ProcessResident?, _ to: ProcessResident?) -> String {
        guard let from = from?.total, let to = to?.total else { return "?" }
        return String(format: "%.1f → %.1f", Double(from) * 1024 / 1e6, Double(to) * 1024 / 1e6)
    }

    /// Whether the resident size is at most `limit` MB; one that could not be read does not fit.
    private func fits(_ resident: ProcessResident?, _ limit: Int) -> Bool {
        guard let resident else { return false }
        return Double(resident.total) * 1024 <= Double(limit) * 1e6
    }

    /// How much anonymous memory grew, KB; `nil` when either could not be read.
    private func anonymousGrowth(_ from: ProcessResident?, _ to: ProcessResident?) -> Double? {
        guard let from = from?.anonymous, let to = to?.anonymous else { return nil }
        return Double(to - from) * 1024 / 1000
    }

    /// Whether it grew by more than the noise; `nil` when either could not be read.
    private func grows(_ from: ProcessResident?, _ to: ProcessResident?) -> Bool? {
        guard let from = from?.total, let to = to?.total else { return nil }
        return to - from > flatKilobytes
    }
}
