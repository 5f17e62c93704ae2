import Foundation
import RelayDBus

/// `Notify` calls driven at a server: several client connections, each keeping calls in flight
/// through RelayDBus's async `call`, every round trip timed.
struct NotifyLoad {
    /// What one run measured.
    struct Figures {
        var elapsed: Duration
        /// Every round trip.
        var roundTrips: LatencyHistogram
        /// CPU time the measured process used during the run, when it was measured.
        var cpu: Duration? = nil

        /// Calls completed in the counted part.
        var calls: Int { roundTrips.count }

        var callsPerSecond: Double { Double(calls) / elapsed.seconds }

        /// The round trip at `fraction` (0.5 for the median), in milliseconds.
        func percentile(_ fraction: Double) -> Double { roundTrips.percentile(fraction) }
    }

    let clients: [DBusConnection]
    let inFlight: Int

    /// Calls for `warmUp` (not counted), then for `duration`, from every client at once;
    /// `cpu` reads a process's CPU time, taken before and after the counted part.
    func run(warmUp: Duration, duration: Duration, cpu: () -> Duration? = { nil }) async throws -> Figures {
        _ = try await drive(for: warmUp)
        let cpuBefore = cpu()
        let start = ContinuousClock.now
        let roundTrips = try await drive(for: duration)
        let elapsed = ContinuousClock.now - start
        let used = cpu().flatMap { after in cpuBefore.map { after - $0 } }
        return Figures(elapsed: elapsed, roundTrips: LatencyHistogram(roundTrips), cpu: used)
    }

    /// Each client's `inFlight` tasks call in a loop until the deadline; returns every round
    /// trip in nanoseconds.
    private func drive(for duration: Duration) async throws -> [Int64] {
        let deadline = ContinuousClock.now + duration
        return try await withThrowingTaskGroup(of: [Int64].self) { group in
            for client in clients {
                for _ in 0..<inFlight {
                    group.addTask {
                        var roundTrips: [Int64] = []
                        while ContinuousClock.now < deadline {
                            let sent = MonotonicClock.nanoseconds()
                            _ = try await client.call(
                                destination: Self.busName, path: Self.path, interface: Self.busName, method: "Notify",
                                arguments: Self.arguments)
                            roundTrips.append(MonotonicClock.nanoseconds() - sent)
                        }
                        return roundTrips
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    static let busName = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    /// A plain notification as notify-send sends one (an urgency hint), expiring never, so relay-phone
    /// keeps every one (its centre grows as it would under a burst).
    static let arguments: [DBusValue] = [
        .string("relay-bench"), .uint32(0), .string(""), .string("Build finished"), .string("All 1,432 tests passed"),
        .array([String]()),
        .dictionary(
            keySignature: .string, valueSignature: .variant,
            entries: [DBusDictionaryEntry(key: .string("urgency"), value: .variant(.byte(1)))]),
        .int32(0),
    ]
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A process's CPU time from `/proc/PID/stat`.
enum ProcessCPU {
    /// User plus system time, or `nil` if the process is gone.
    static func time(of pid: pid_t) -> Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command name (which may hold spaces) come the state (field 3), …, utime (14), stime (15).
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
        let ticksPerSecond = Int64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        return .milliseconds((user + system) * 1000 / ticksPerSecond)
    }
}
