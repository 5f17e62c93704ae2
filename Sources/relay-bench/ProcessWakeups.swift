import Foundation

/// How often a process's threads have been switched in, by thread: each context switch
/// (`voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches` in `/proc/PID/task/TID/status`)
/// is one wake-up of the processor for it. A thread's count lives as long as the thread, so a
/// thread that ends between two readings takes its count with it; the agents' threads live as
/// long as they do.
struct ProcessWakeups {
    /// Switches so far, by thread id, with the thread's name (`comm`).
    var threads: [Int: (name: String, switches: Int)]

    /// The counts of process `pid` now, or `nil` if it is gone.
    init?(of pid: pid_t) {
        guard let tids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        threads = [:]
        for tid in tids.compactMap(Int.init) {
            let directory = "/proc/\(pid)/task/\(tid)"
            guard let status = try? String(contentsOfFile: "\(directory)/status", encoding: .utf8) else { continue }
            let name = (try? String(contentsOfFile: "\(directory)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            var switches = 0
            for line in status.split(separator: "\n") {
                let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if parts.count == 2, parts[0].hasSuffix("ctxt_switches:"), let value = Int(parts[1]) { switches += value }
            }
            threads[tid] = (name, switches)
        }
    }

    /// The wake-ups since `earlier`, summed by thread name (threads of one name, such as a
    /// pool's, together), a thread new since then counted from its start.
    func since(_ earlier: ProcessWakeups) -> [String: Int] {
        var byName: [String: Int] = [:]
        for (tid, thread) in threads {
            byName[thread.name, default: 0] += thread.switches - (earlier.threads[tid]?.switches ?? 0)
        }
        return byName
    }
}

extension Dictionary where Key == String, Value == Int {
    /// "relay-link 120, NIO-ELT-0-#0 4, …": the largest first.
    var wakeupBreakdown: String {
        sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
