import Foundation
import Glibc

/// What one durable write costs on the filesystem that holds the agents' state: with
/// `synchronous = FULL` (what RelayDatabase asks for) each SQLite commit in WAL mode waits for
/// an `fdatasync` of the log. Measured beside the state, so the latencies can be read against it.
enum FsyncProbe {
    /// `count` writes of 4 KiB, each followed by `fdatasync`, in a scratch file in `directory`.
    static func measure(in directory: String, count: Int = 100) throws -> LatencyHistogram {
        let path = directory + "/fsync-probe"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw BenchError("could not create \(path) for the fsync probe: \(String(cString: strerror(errno)))")
        }
        defer {
            close(descriptor)
            unlink(path)
        }
        let page = [UInt8](repeating: 0x5a, count: 4096)
        var samples: [Int64] = []
        for index in 0..<count {
            let start = MonotonicClock.nanoseconds()
            let written = page.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(index * 4096)) }
            guard written == page.count, fdatasync(descriptor) == 0 else {
                throw BenchError("the fsync probe could not write \(path): \(String(cString: strerror(errno)))")
            }
            samples.append(MonotonicClock.nanoseconds() - start)
        }
        return LatencyHistogram(samples)
    }
}
