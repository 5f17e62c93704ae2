import Foundation
import Histogram

/// Latencies in nanoseconds, kept in an HDR histogram (hdrhistogram-swift): three significant
/// digits at every magnitude, so p99.9 and the maximum of a run of millions cost what a
/// thousand samples do, and the tail is reported as precisely as the median.
struct LatencyHistogram: Sendable {
    private var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)

    /// An empty histogram.
    init() {}

    /// A histogram of `samples` (nanoseconds). A negative sample (clocks read on two cores
    /// cannot disagree on `CLOCK_MONOTONIC`, so only a bug makes one) counts as zero.
    init(_ samples: some Sequence<Int64>) {
        for sample in samples { record(sample) }
    }

    /// Records one latency in nanoseconds.
    mutating func record(_ nanoseconds: Int64) {
        // The histogram resizes itself (up to UInt64.max / 2), so recording cannot fail.
        _ = histogram.record(UInt64(max(0, nanoseconds)))
    }

    /// How many latencies were recorded.
    var count: Int { Int(histogram.totalCount) }

    /// The latency at `fraction` (0.5 for the median, 0.999 for p99.9), in milliseconds: the
    /// highest value equivalent to it at three significant digits; `nan` when empty.
    func percentile(_ fraction: Double) -> Double {
        guard histogram.totalCount > 0 else { return .nan }
        return Double(histogram.valueAtPercentile(fraction * 100)) / 1e6
    }

    /// The largest latency recorded, exactly, in milliseconds; `nan` when empty.
    var maximum: Double {
        histogram.totalCount > 0 ? Double(histogram.maxRecorded) / 1e6 : .nan
    }

    /// `p50 / p99 / p99.9 / max` in milliseconds, for a table cell.
    var summary: String {
        String(format: "%.2f / %.2f / %.2f / %.2f", percentile(0.5), percentile(0.99), percentile(0.999), maximum)
    }
}
