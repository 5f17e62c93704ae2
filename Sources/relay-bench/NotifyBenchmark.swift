import ArgumentParser
import Foundation
import RelayDBus
import RelayTestSupport

/// `Notify` against relay-phone and against python3-dbusmock's notification_daemon, one after the
/// other on one private dbus-daemon, under the same load.
struct NotifyBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Notify calls per second and round trips: relay-phone against python3-dbusmock's notification_daemon.",
        discussion: """
            relay-phone must be built beside relay-bench (swift build -c release --product relay-phone), \
            and python3-dbusmock installed for /usr/bin/python3.
            """)

    // 512 calls in flight: where both servers' rates stop growing on the 2-core machine this was
    // measured on (Docs/BENCHMARKS.md has the sweep); fewer leave relay-phone waiting on the bus.
    @Option(help: "Client connections.")
    var clients: Int = 8

    @Option(name: .customLong("in-flight"), help: "Calls each client keeps in flight.")
    var inFlight: Int = 64

    @Option(help: "Seconds measured per server, after one second of warm-up.")
    var seconds: Int = 3

    func run() async throws {
        guard clients > 0, inFlight > 0, seconds > 0 else { throw ValidationError("--clients, --in-flight and --seconds must be positive") }
        // dbus-daemon answers a connection's 129th outstanding call with LimitsExceeded.
        guard inFlight <= 128 else {
            throw ValidationError("--in-flight is at most 128: dbus-daemon allows 128 calls awaiting a reply per connection; add --clients instead")
        }
        let phone = try Self.siblingExecutable("relay-phone")
        let directory = "/tmp/relay-bench-notify-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        try await withPrivateBus { bus in
            let watcher = try await bus.connect()
            var owners = try await watcher.signals(matching: .nameOwnerChanged(name: NotifyLoad.busName)).makeAsyncIterator()
            let relay = try await measure(bus) {
                try await Self.withRelayPhone(phone, on: bus, directory: directory, $0)
            }
            // The name must be free again before dbusmock asks for it.
            _ = await next(&owners) { $0.arguments.count == 3 && $0.arguments[2] == .string("") }
            let mock = try await measure(bus) { body in
                try await withDBusMock(["--template", "notification_daemon"], owning: NotifyLoad.busName, on: bus) { mock in
                    try await body(mock.pid)
                }
            }
            // The yardstick: a server that answers at once and does nothing else.
            _ = await next(&owners) { $0.arguments.count == 3 && $0.arguments[2] == .string("") }
            let load = NotifyLoad(address: bus.address, clients: clients, inFlight: inFlight)
            let null = try await NullServerThread.serving(NotifyLoad.busName, on: bus.address, reply: [.uint32(1)]) {
                try await load.run(warmUp: .seconds(1), duration: .seconds(seconds))
            }
            print("load: \(load.description), "
                + "\(seconds) s after 1 s of warm-up per server, then 1 call in flight for the unloaded round trip; "
                + "relay-phone first, then dbusmock, then a server that only replies, on one private dbus-daemon")
            report("relay-phone", relay)
            report("dbusmock   ", mock)
            print(String(
                format: "a server that only replies (libdbus, no work; the most this bus and load allow): %.0f calls/s, %.1f× dbusmock's",
                null.callsPerSecond, null.callsPerSecond / mock.loaded.callsPerSecond))
            print(String(
                format: "ratio: relay-phone %.1f× dbusmock's calls/s, %.1f× less server CPU per call",
                relay.loaded.callsPerSecond / mock.loaded.callsPerSecond, mock.cpuPerCall / relay.cpuPerCall))
            print("target: ≥ 4× dbusmock's rate, p99 round trip < 1 ms (release)")
            record(relay: relay, mock: mock, null: null)
        }
    }

    /// One server's figures: under the full load, and one call at a time.
    private struct Measured {
        var loaded: NotifyLoad.Figures
        var single: NotifyLoad.Figures
        /// The server's CPU time (user and system) during the loaded run.
        var serverCPU: Duration

        /// Server CPU seconds per call under load.
        var cpuPerCall: Double { serverCPU.seconds / Double(max(1, loaded.calls)) }
    }

    /// Starts a server with `serving`, which runs the measurement it is handed, with the server's
    /// process id, while the server is up.
    private func measure(
        _ bus: PrivateBus, serving: ((pid_t) async throws -> Void) async throws -> Void
    ) async throws -> Measured {
        var measured: Measured?
        try await serving { pid in
            let load = NotifyLoad(address: bus.address, clients: clients, inFlight: inFlight)
            let loaded = try await load.run(warmUp: .seconds(1), duration: .seconds(seconds)) {
                ProcessCPU.time(of: pid)
            }
            let single = try await NotifyLoad(address: bus.address, clients: 1, inFlight: 1)
                .run(warmUp: .milliseconds(200), duration: .seconds(1))
            measured = Measured(loaded: loaded, single: single, serverCPU: loaded.cpu ?? .zero)
        }
        guard let measured else { throw ValidationError("the server stopped before it was measured") }
        return measured
    }

    private func record(relay: Measured, mock: Measured, null: NotifyLoad.Figures) {
        let section = "notify"
        let ratio = relay.loaded.callsPerSecond / mock.loaded.callsPerSecond
        FigureLog.record(
            section, "Notify calls/s under load (\(clients) connections × \(inFlight) in flight): relay-phone · dbusmock",
            "\(FigureFormat.grouped(Int(relay.loaded.callsPerSecond))) · \(FigureFormat.grouped(Int(mock.loaded.callsPerSecond)))")
        FigureLog.record(
            section, "relay-phone's rate against dbusmock's", FigureFormat.fixed(ratio, 1) + "×", target: "≥ 4×", met: ratio >= 4)
        FigureLog.record(
            section, "a server that only replies, same load: calls/s, and its rate against dbusmock's",
            "\(FigureFormat.grouped(Int(null.callsPerSecond))) · \(FigureFormat.fixed(null.callsPerSecond / mock.loaded.callsPerSecond, 1))×")
        FigureLog.record(
            section, "round trip one call at a time, p50 / p99 / p99.9 / max ms: relay-phone", relay.single.roundTrips.summary,
            target: "p99 < 1 ms", met: relay.single.percentile(0.99) < 1)
        FigureLog.record(section, "… dbusmock", mock.single.roundTrips.summary)
        FigureLog.record(section, "round trip under load, p50 / p99 / p99.9 / max ms: relay-phone", relay.loaded.roundTrips.summary)
        FigureLog.record(section, "… dbusmock", mock.loaded.roundTrips.summary)
        FigureLog.record(
            section, "server CPU per call under load, µs: relay-phone · dbusmock",
            "\(FigureFormat.fixed(relay.cpuPerCall * 1e6, 1)) · \(FigureFormat.fixed(mock.cpuPerCall * 1e6, 1))")
    }

    private func report(_ name: String, _ measured: Measured) {
        let loaded = measured.loaded
        let single = measured.single
        print(String(
            format: "%@: %.0f calls/s (%d calls), round trip under load p50 %.3f ms, p99 %.3f ms; "
                + "one at a time p50 %.3f ms, p99 %.3f ms; server CPU %.1f µs per call",
            name, loaded.callsPerSecond, loaded.calls, loaded.percentile(0.5), loaded.percentile(0.99),
            single.percentile(0.5), single.percentile(0.99), measured.cpuPerCall * 1e6))
    }

    /// Runs relay-phone as the server on `bus` while `body` runs, then stops it with SIGTERM.
    private static func withRelayPhone(
        _ executable: String, on bus: PrivateBus, directory: String, _ body: (pid_t) async throws -> Void
    ) async throws {
        let agent = try ChildProcess(executable, [
            "--transport", "loopback", "--bus", bus.address, "--control-socket", directory + "/phone.sock",
            "--state-directory", directory + "/state", "--peer", directory + "/wearable-link.sock",
            // Not the machine's system bus: the benchmark touches nothing outside its own bus.
            "--system-bus", "unix:path=\(directory)/no-system-bus",
        ])
        var lines = agent.lines.makeAsyncIterator()
        guard let ready = await lines.next(), ready.hasSuffix("mode: server") else {
            await agent.stop()
            throw ValidationError("relay-phone did not start as the server on the benchmark's bus")
        }
        do {
            try await body(agent.pid)
        } catch {
            await agent.stop()
            throw error
        }
        await agent.stop(SIGTERM)
    }

    /// `name` in the directory of this executable (as the build puts them side by side).
    private static func siblingExecutable(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: BenchWorkspace.binaryDirectory).appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ValidationError("no \(name) at \(path); build it: swift build -c release --product \(name)")
        }
        return path
    }
}
