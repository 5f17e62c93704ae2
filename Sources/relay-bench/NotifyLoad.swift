import Foundation
import RelayDBus
import RelayTestSupport

/// `Notify` calls driven at a server: several client connections, each on a thread of its own
/// keeping calls in flight through libdbus directly (`DBusCallPipeline`), every round trip timed.
///
/// The load generator shares the machine's cores with the server and dbus-daemon, so it is kept
/// cheap: no tasks, no event loop, one copy of a prepared message per call.
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

    /// The bus the server is on.
    let address: String
    let clients: Int
    let inFlight: Int

    /// How the load is made, for the benchmark's output.
    var description: String {
        "\(clients) client connection\(clients == 1 ? "" : "s") × \(inFlight) Notify call\(inFlight == 1 ? "" : "s") in flight each "
            + "(a thread per connection calling through libdbus directly)"
    }

    /// Calls for `warmUp` (not counted), then for `duration`, from every client at once;
    /// `cpu` reads a process's CPU time, taken before and after the counted part.
    func run(warmUp: Duration, duration: Duration, cpu: @escaping @Sendable () -> Duration? = { nil }) async throws -> Figures {
        let start = MonotonicClock.nanoseconds()
        let countFrom = start + Self.nanoseconds(warmUp)
        let end = countFrom + Self.nanoseconds(duration)
        let address = address, inFlight = inFlight
        enum Part: Sendable {
            case roundTrips([Int64])
            case serverCPU(Duration?)
        }
        return try await withThrowingTaskGroup(of: Part.self) { group in
            for index in 0..<clients {
                group.addTask {
                    .roundTrips(
                        try await onThread(named: "notify-load-\(index)") {
                            let pipeline = try DBusCallPipeline(
                                address: address, destination: Self.busName, path: Self.path, interface: Self.busName,
                                method: "Notify", arguments: Self.arguments)
                            return try pipeline.run(
                                inFlight: inFlight, countFrom: countFrom, end: end, patience: 25_000_000_000,
                                clock: MonotonicClock.nanoseconds
                            ).roundTrips
                        })
                }
            }
            // The server's CPU time across the counted part, read from here while the threads call.
            group.addTask {
                try await Task.sleep(for: .nanoseconds(max(0, countFrom - MonotonicClock.nanoseconds())))
                let before = cpu()
                try await Task.sleep(for: .nanoseconds(max(0, end - MonotonicClock.nanoseconds())))
                return .serverCPU(cpu().flatMap { after in before.map { after - $0 } })
            }
            var roundTrips: [Int64] = []
            var used: Duration?
            while let part = try await group.next() {
                switch part {
                case .roundTrips(let some): roundTrips += some
                case .serverCPU(let cpu): used = cpu
                }
            }
            return Figures(elapsed: duration, roundTrips: LatencyHistogram(roundTrips), cpu: used)
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
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
