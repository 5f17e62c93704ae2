import Foundation

/// Latencies in nanoseconds and their order statistics. With a few thousand samples the
/// exact percentiles of the sorted samples are cheap, so no histogram is needed.
struct LatencySamples {
    /// The samples, sorted.
    let sorted: [Int64]

    init(_ samples: [Int64]) {
        sorted = samples.sorted()
    }

    var count: Int { sorted.count }

    /// The sample at `fraction` (0.5 for the median; nearest rank), in milliseconds.
    func percentile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((Double(sorted.count) * fraction).rounded(.up)) - 1
        return Double(sorted[min(sorted.count - 1, max(0, rank))]) / 1e6
    }

    /// The largest sample, in milliseconds.
    var maximum: Double { sorted.last.map { Double($0) / 1e6 } ?? .nan }

    /// `p50 / p99 / p99.9 / max` in milliseconds, for a table cell.
    var summary: String {
        String(
            format: "%.2f / %.2f / %.2f / %.2f", percentile(0.5), percentile(0.99), percentile(0.999), maximum)
    }
}
