import Foundation

/// Prints `relay-bench bulk`'s figures as Markdown tables and records them (FigureLog) for the
/// summary and Docs/BENCHMARKS.md.
struct BulkReport {
    let benchmark: BulkBenchmark
    let results: BulkRun.Results

    /// Bytes one attachment chunk takes on the link: 4,096 bytes of data, its envelope (hash,
    /// offset, total size, field tags, the acknowledgement), the Noise tag and the frame header.
    static let chunkBytesOnLink = 4_170

    private let section = "bulk"

    /// Chunks the wearable asks for ahead (`WearableLink.requestWindow`): what a control message
    /// may find queued before it on the link (Docs/PROTOCOL.md §8.8).
    static let windowChunks = 2

    /// How long the wearable's request window occupies the simulated link, in milliseconds.
    var chunkMilliseconds: Double {
        Double(Self.windowChunks * Self.chunkBytesOnLink) / Double(benchmark.bytesPerSecond) * 1000
    }

    /// The loaded phase's p99 may exceed the idle phase's by at most the window's time on the link.
    var met: Bool {
        let idle = results.idle.latencies.percentile(0.99)
        let loaded = results.loaded.latencies.percentile(0.99)
        return loaded <= idle + chunkMilliseconds && results.idle.missing == 0 && results.loaded.missing == 0
    }

    func print() {
        let b = benchmark
        let c = b.conditions
        Swift.print("""
            load: text notifications (Notify over \(b.connections) D-Bus connections, a unique title each, never \
            expiring) at \(b.rate)/s for \(b.seconds) s per phase, each sent at its slot on the clock, after 1 s of \
            warm-up not counted; relay-phone reaches relay-wearable through the link simulator \
            (\(FigureFormat.grouped(c.bytesPerSecond)) bytes/s each way, \(b.latencyMilliseconds) ms, MTU \(c.mtu)); \
            both in loopback mode, paired and locked. Images: noise PNGs of \(b.imageSide) × \(b.imageSide) posted \
            with an image-path hint from a connection of their own, the next as soon as the wearable has stored \
            the previous one (its status polled every \(Int(AttachmentFeeder.pollInterval.seconds * 1000)) ms).
            load average (1, 5, 15 min) at the end: \(EndToEndReport.loadAverage)

            Notify → pixels over the simulated link, in ms (p50 / p99 / p99.9 / max): present − send, and its two
            stages: the Notify round trip at the app (relay-phone replies after its commit), then reply → present
            (the link, the wearable's commit, the frame)
            | phase | notifications | present − send | Notify round trip | reply → present | not drawn |
            | --- | --- | --- | --- | --- | --- |
            """)
        for (name, phase) in [("link idle", results.idle), ("an image always in flight", results.loaded)] {
            Swift.print(
                "| \(name) | \(phase.samples.count) | \(phase.latencies.summary) | \(phase.roundTrips.summary) | "
                    + "\(phase.afterReply.summary) | \(phase.missing) |")
        }
        Swift.print(String(
            format: "p99 with an image in flight − p99 idle: %+.2f ms; target ≤ the wearable's request window on the link (%d chunks of %@ bytes at %@ bytes/s = %.1f ms): %@",
            p99Increase, Self.windowChunks, FigureFormat.grouped(Self.chunkBytesOnLink), FigureFormat.grouped(b.bytesPerSecond), chunkMilliseconds,
            FigureFormat.verdict(met)))
        transfers()
        record()
    }

    private var p99Increase: Double { results.loaded.latencies.percentile(0.99) - results.idle.latencies.percentile(0.99) }

    private func transfers() {
        let transfers = results.transfers
        Swift.print("""

            Images carried (post → stored on the wearable, in s)
            | image | bytes | post → stored s | bytes/s |
            | --- | --- | --- | --- |
            """)
        for (index, transfer) in transfers.enumerated() {
            let seconds = Double(transfer.stored - transfer.posted) / 1e9
            Swift.print(String(
                format: "| %d | %@ | %.2f | %@ |", index + 1, FigureFormat.grouped(transfer.bytes), seconds,
                FigureFormat.grouped(Int(Double(transfer.bytes) / seconds))))
        }
        Swift.print(String(
            format: "%d images, %@ bytes; bulk throughput %@ bytes/s (%.0f %% of the link, counting each chunk's %@ bytes on it); an image in flight for %.0f %% of the loaded phase",
            transfers.count, FigureFormat.grouped(transfers.map(\.bytes).reduce(0, +)), FigureFormat.grouped(Int(throughput)),
            linkShare * 100, FigureFormat.grouped(Self.chunkBytesOnLink), coverage * 100))
    }

    /// Image bytes per second while an image was on its way: every image's bytes over the sum
    /// of their post → stored times (the Notify call, the phone taking the image in, the
    /// upsert and the request on the link included).
    private var throughput: Double {
        let seconds = results.transfers.map { Double($0.stored - $0.posted) / 1e9 }.reduce(0, +)
        return seconds > 0 ? Double(results.transfers.map(\.bytes).reduce(0, +)) / seconds : .nan
    }

    /// The share of the link's bandwidth the chunks used while an image was on its way.
    private var linkShare: Double {
        throughput * Double(Self.chunkBytesOnLink) / 4096 / Double(benchmark.bytesPerSecond)
    }

    /// The share of the loaded phase (first send to last send) during which an image was
    /// between its post and its being stored.
    private var coverage: Double {
        let window = results.loaded.window
        let length = Double(window.upperBound - window.lowerBound)
        guard length > 0 else { return .nan }
        let covered = results.transfers.map { transfer -> Int64 in
            max(0, min(transfer.stored, window.upperBound) - max(transfer.posted, window.lowerBound))
        }.reduce(0, +)
        return Double(covered) / length
    }

    private func record() {
        let b = benchmark
        let stream = "\(b.rate)/s for \(b.seconds) s over the simulated link (\(FigureFormat.grouped(b.bytesPerSecond)) bytes/s, \(b.latencyMilliseconds) ms)"
        FigureLog.record(
            section, "link idle: \(stream), present − send p50 / p99 / p99.9 / max ms",
            results.idle.latencies.summary + missing(results.idle.missing), summary: true)
        FigureLog.record(
            section, "an image attachment always in flight: the same stream, present − send p50 / p99 / p99.9 / max ms",
            results.loaded.latencies.summary + missing(results.loaded.missing),
            target: String(format: "p99 ≤ idle p99 + the request window (%.0f ms)", chunkMilliseconds), met: met)
        FigureLog.record(section, "… p99 with an image in flight − p99 idle", String(format: "%+.2f ms", p99Increase))
        FigureLog.record(
            section, "… of which, with an image in flight, the Notify round trip / reply → present p50 / p99 ms",
            String(
                format: "%.2f / %.2f; %.2f / %.2f", results.loaded.roundTrips.percentile(0.5), results.loaded.roundTrips.percentile(0.99),
                results.loaded.afterReply.percentile(0.5), results.loaded.afterReply.percentile(0.99)))
        let bytes = results.transfers.map(\.bytes)
        let sizes = (bytes.min() == bytes.max() ? bytes.first.map(FigureFormat.grouped) : bytes.min().map { "\(FigureFormat.grouped($0))–\(FigureFormat.grouped(bytes.max() ?? $0))" }) ?? "—"
        let times = results.transfers.map { Double($0.stored - $0.posted) / 1e9 }.sorted()
        let median = times.isEmpty ? Double.nan : times[(times.count - 1) / 2]
        FigureLog.record(
            section, "images carried meanwhile (\(b.imageSide) × \(b.imageSide) noise PNG, bytes each), post → stored median",
            "\(results.transfers.count) (\(sizes) bytes), " + String(format: "%.2f s", median))
        FigureLog.record(
            section, "bulk throughput: image bytes per second of post → stored (share of the link, chunk overhead counted)",
            "\(FigureFormat.grouped(Int(throughput))) bytes/s (" + String(format: "%.0f %%", linkShare * 100) + ")")
        FigureLog.record(section, "share of the loaded phase with an image in flight", String(format: "%.0f %%", coverage * 100))
    }

    private func missing(_ count: Int) -> String { count == 0 ? "" : "; \(count) not drawn" }
}
