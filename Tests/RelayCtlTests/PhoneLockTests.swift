import Foundation
import RelayDBus
import RelayTestSupport
import Testing

/// relay-phone's lock state end to end: logind from python3-dbusmock on a private "system bus",
/// the manual override through relayctl, and `status` saying which source decided.
@Suite struct PhoneLockTests {
    static let login1 = "org.freedesktop.login1"

    @Test(.timeLimit(.minutes(1))) func logindAndTheManualOverrideDecide() async throws {
        try await withPrivateBus { system in
            try await withDBusMock(["--system", "--template", "logind"], owning: Self.login1, on: system) { _ in
                let client = try await system.connect()
                let session = try await Self.addSession(client)
                func setLockedHint(_ locked: Bool) async throws { try await Self.setLockedHint(locked, of: session, client) }

                try await withLockingPhone(systemBus: system.address) { lines, socket in
                    // Each effective change is one log line: the events to wait for.
                    try await setLockedHint(true)
                    #expect(await next(&lines) { $0.contains("lock state:") } == "relay-phone: lock state: locked (logind)")
                    #expect(try await lockStatus(socket) == (1, "logind"))

                    #expect(try await relayctl(["unlock", "--control-socket", socket]) == (0, "unlocked (manual)"))
                    #expect(await next(&lines) { $0.contains("lock state:") } == "relay-phone: lock state: unlocked (manual)")
                    #expect(try await lockStatus(socket) == (0, "manual"))
                    #expect(try await relayctl(["lock", "--control-socket", socket]) == (0, "locked (manual)"))
                    #expect(await next(&lines) { $0.contains("lock state:") } == "relay-phone: lock state: locked (manual)")
                    // Back to automatic: logind still says locked, so no effective change and no line.
                    #expect(try await relayctl(["lock", "--auto", "--control-socket", socket]) == (0, "locked (logind)"))

                    try await setLockedHint(false)
                    #expect(await next(&lines) { $0.contains("lock state:") } == "relay-phone: lock state: unlocked (logind)")
                    #expect(try await lockStatus(socket) == (0, "logind"))
                    try await setLockedHint(true)
                    #expect(await next(&lines) { $0.contains("lock state:") } == "relay-phone: lock state: locked (logind)")
                    #expect(try await relayctl(["unlock", "--auto", "--control-socket", socket]) == (0, "locked (logind)"))
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aPhoneLockedAtStartUpCountsAsLockedBeforeItTakesNotifications() async throws {
        try await withPrivateBus { system in
            try await withDBusMock(["--system", "--template", "logind"], owning: Self.login1, on: system) { _ in
                let client = try await system.connect()
                try await Self.setLockedHint(true, of: try await Self.addSession(client), client)
                // Counting as unlocked until a source reports, so that logind's first reading is
                // seen to change the state (a headless phone counts as locked already).
                try await withLockingPhone(systemBus: system.address, arguments: ["--without-lock-source", "unlocked"]) { _, socket in
                    let status = try await lockStatus(socket)
                    #expect(status == (1, "logind"))
                } before: { startup in
                    // Before "ready:", which comes once the name is taken and calls are served.
                    #expect(startup.contains("relay-phone: lock state: locked (logind)"), "\(startup)")
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func runsWithoutASystemBusAsAHeadlessPhone() async throws {
        let missing = "unix:path=/nonexistent/relay-\(UUID().uuidString.prefix(8))"
        try await withLockingPhone(systemBus: missing) { _, socket in
            // No logind, no screensaver: a board with no screen, which counts as locked.
            #expect(try await lockStatus(socket) == (1, "headless"))
            let text = try await relayctl(["status", "--phone", "--control-socket", socket])
            #expect(text.output.split(separator: "\n").contains("lock: no screen (headless) — mirroring"), "\(text.output)")
            #expect(try await relayctl(["unlock", "--control-socket", socket]) == (0, "unlocked (manual)"))
            #expect(try await relayctl(["lock", "--auto", "--control-socket", socket]) == (0, "locked (headless)"))
        } before: { startup in
            #expect(startup.contains { $0.hasPrefix("relay-phone: no system bus (\(missing): ") })
        }
    }

    @Test(.timeLimit(.minutes(1))) func aPhoneToldToCountAsUnlockedWithoutASourceDoesSo() async throws {
        let missing = "unix:path=/nonexistent/relay-\(UUID().uuidString.prefix(8))"
        try await withLockingPhone(systemBus: missing, arguments: ["--without-lock-source", "unlocked"]) { _, socket async throws in
            #expect(try await lockStatus(socket) == (0, "none"))
        }
    }

    // MARK: Helpers

    /// Adds an active session on seat0 to dbusmock's logind; returns its object path.
    private static func addSession(_ client: DBusConnection) async throws -> String {
        try await client.call(
            destination: login1, path: "/org/freedesktop/login1", interface: "org.freedesktop.DBus.Mock",
            method: "AddSession", arguments: [.string("c1"), .string("seat0"), .uint32(1000), .string("user"), .boolean(true)]
        ).decode(0, as: String.self)
    }

    private static func setLockedHint(_ locked: Bool, of session: String, _ client: DBusConnection) async throws {
        _ = try await client.call(
            destination: login1, path: session, interface: "org.freedesktop.login1.Session", method: "SetLockedHint",
            arguments: [.boolean(locked)])
    }

    /// Starts relay-phone on a private session bus with `--system-bus`, its log lines merged into
    /// its output; `before` sees the lines up to "ready:". Stops it with SIGTERM afterwards.
    private func withLockingPhone(
        systemBus: String, arguments: [String] = [], _ body: (inout AsyncStream<String>.Iterator, String) async throws -> Void,
        before: ([String]) -> Void = { _ in }
    ) async throws {
        try await withPrivateBus { bus in
            let directory = "/tmp/relay-lock-test-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let socket = directory + "/phone.sock"
            let phone = try ChildProcess(
                RelayCtlTests.binary("relay-phone").path,
                ["--transport", "loopback", "--bus", bus.address, "--system-bus", systemBus, "--control-socket", socket, "--state-directory", socket + ".state", "--peer", socket + ".link"]
                    + arguments,
                mergingStandardError: true)
            var lines = phone.lines.makeAsyncIterator()
            var startup: [String] = []
            while let line = await lines.next() {
                if line.hasPrefix("ready: ") { break }
                startup.append(line)
            }
            do {
                before(startup)
                try await body(&lines, socket)
            } catch {
                await phone.stop()
                throw error
            }
            kill(phone.pid, SIGTERM)
            #expect(await phone.wait() == 0)
        }
    }

    private func lockStatus(_ socket: String) async throws -> (locked: Int?, source: String?) {
        let status = try await relayctl(["status", "--phone", "--json", "--control-socket", socket])
        let object = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
        return (object?["locked"] as? Int, object?["lockSource"] as? String)
    }

    private func relayctl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await runCommand(RelayCtlTests.binary("relayctl").path, arguments)
    }
}
