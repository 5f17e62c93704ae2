import Glibc

/// `CLOCK_MONOTONIC` in nanoseconds: the clock relay-wearable stamps its present trace with
/// (`RELAY_PRESENT_TRACE`). It is one clock for every process on the machine, so a time read
/// here before a `Notify` can be subtracted from the wearable's time of the frame.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary point (boot), the same in every process.
    static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
