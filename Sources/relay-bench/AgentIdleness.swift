import Foundation

/// What the two agents cost while nothing happens: their wake-ups (all threads) and CPU time
/// over a window, the figures issue #33's budgets are about.
struct AgentIdleness {
    private let phone: (wakeups: ProcessWakeups, cpu: Duration)
    private let wearable: (wakeups: ProcessWakeups, cpu: Duration)

    /// The agents' counts at the start of the window.
    init(phone phonePID: pid_t, wearable wearablePID: pid_t) throws {
        phone = try Self.reading(phonePID, "relay-phone")
        wearable = try Self.reading(wearablePID, "relay-wearable")
    }

    /// The window's figures, read at its end.
    func since(phone phonePID: pid_t, wearable wearablePID: pid_t) throws -> Window {
        let phoneNow = try Self.reading(phonePID, "relay-phone")
        let wearableNow = try Self.reading(wearablePID, "relay-wearable")
        return Window(
            phone: .init(byThread: phoneNow.wakeups.since(phone.wakeups), cpu: phoneNow.cpu - phone.cpu),
            wearable: .init(byThread: wearableNow.wakeups.since(wearable.wakeups), cpu: wearableNow.cpu - wearable.cpu))
    }

    private static func reading(_ pid: pid_t, _ name: String) throws -> (wakeups: ProcessWakeups, cpu: Duration) {
        guard let wakeups = ProcessWakeups(of: pid), let cpu = ProcessCPU.time(of: pid) else {
            throw BenchError("\(name) stopped while idling; run it by hand to see why")
        }
        return (wakeups, cpu)
    }

    /// One agent's figures over the window.
    struct Agent {
        /// Wake-ups by thread name.
        var byThread: [String: Int]
        /// User plus system time.
        var cpu: Duration

        var wakeups: Int { byThread.values.reduce(0, +) }
    }

    /// Both agents' figures over the window.
    struct Window {
        var phone: Agent
        var wearable: Agent

        /// Prints the figures scaled to a minute, with each agent's breakdown, and records them.
        func report(seconds: Int) {
            let scale = 60 / Double(seconds)
            func perMinute(_ count: Int) -> Int { Int((Double(count) * scale).rounded()) }
            func perMinute(_ byThread: [String: Int]) -> [String: Int] { byThread.mapValues(perMinute) }
            func cpu(_ agent: Agent) -> String { String(format: "%.0f", agent.cpu.seconds * 1000 * scale) }
            print("""
                wake-ups per idle minute (all threads, from /proc/PID/task/*/status, \(seconds) s scaled): \
                relay-phone \(perMinute(phone.wakeups)), relay-wearable \(perMinute(wearable.wakeups))
                  relay-phone by thread: \(perMinute(phone.byThread).wakeupBreakdown)
                  relay-wearable by thread: \(perMinute(wearable.byThread).wakeupBreakdown)
                CPU per idle minute: relay-phone \(cpu(phone)) ms, relay-wearable \(cpu(wearable)) ms
                """)
            FigureLog.record(
                "idle-link", "wake-ups per idle minute, all threads: relay-phone / relay-wearable",
                "\(perMinute(phone.wakeups)) / \(perMinute(wearable.wakeups))", target: "≤ 30 / ≤ 10",
                met: perMinute(phone.wakeups) <= 30 && perMinute(wearable.wakeups) <= 10)
            FigureLog.record("idle-link", "… relay-phone by thread", perMinute(phone.byThread).wakeupBreakdown)
            FigureLog.record("idle-link", "… relay-wearable by thread", perMinute(wearable.byThread).wakeupBreakdown)
            FigureLog.record("idle-link", "CPU per idle minute: relay-phone / relay-wearable ms", "\(cpu(phone)) / \(cpu(wearable))")
        }
    }
}
