import Foundation
import RelayDBus
import RelayTestSupport
import Testing

/// relay-phone in monitor mode: python3-dbusmock's notification_daemon owns
/// org.freedesktop.Notifications on a private bus, relay-phone runs beside it, and real clients
/// (notify-send, gdbus) and relayctl drive it as a user would.
@Suite struct PhoneMonitorTests {
    static let interface = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    @Test(.timeLimit(.minutes(1))) func capturesUnderTheDaemonsIDsAndDismissesThere() async throws {
        try await withPrivateBus { bus in
            // Every reply on the bus from here on, to show that relay-phone answers nothing.
            let watcher = try await bus.connect()
            var replies = try await watcher.becomeMonitor(matching: [.init(kind: .methodReturn), .init(kind: .error)])
                .makeAsyncIterator()
            try await withDBusMock(["--template", "notification_daemon"], owning: Self.interface, on: bus) { _ in
                let client = try await bus.connect()
                let daemon = try #require(try await client.nameOwner(of: Self.interface))
                var closed = try await client.signals(matching: .signal(interface: Self.interface, member: "NotificationClosed"))
                    .makeAsyncIterator()
                try await withMonitoringPhone(bus) { ready, lines, socket in
                    #expect(ready.hasSuffix("mode: monitor (\(Self.interface) is owned by \(daemon))"))
                    let status = try await statusObject(socket)
                    #expect(status?["mode"] as? String == "monitor" && status?["serverOwner"] as? String == daemon)

                    // notify-send prints the id it was given: the daemon's, and relay-phone lists it under it.
                    let sent = try await runCommand(
                        "/usr/bin/notify-send", ["-p", "Meeting", "Join?"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
                    #expect(sent == (0, "1"))
                    #expect(try await eventually(socket, delivers: ["1\tnotify-send\tMeeting\t[]"]))

                    // A replacement keeps the daemon's id; the content is the new one.
                    let replacing = try await client.callReturningMessage(
                        destination: Self.interface, path: Self.path, interface: Self.interface, method: "Notify",
                        arguments: Self.notifyArguments("Meeting moved", replacing: 1))
                    #expect(replacing.sender == daemon && replacing.arguments == [.uint32(1)])
                    #expect(try await eventually(socket, delivers: ["1\ttest\tMeeting moved\t[yes=Yes]"]))

                    let invoked = try await relayctl(["invoke", "1", "yes", "--control-socket", socket])
                    #expect(invoked.status == 1)
                    #expect(invoked.output.contains("monitor mode cannot invoke actions on another server"))

                    // Dismissing from Relay's side closes it at the daemon, which says so to the apps.
                    #expect(try await relayctl(["dismiss", "1", "--control-socket", socket]).status == 0)
                    let signal = try #require(await next(&closed))
                    #expect(signal.sender == daemon && signal.arguments.first == .uint32(1))
                    #expect(try await relayctl(["delivered", "--control-socket", socket]) == (0, ""))

                    // Closed at the daemon by an app: gone from relay-phone's centre too.
                    let second = try await client.call(
                        destination: Self.interface, path: Self.path, interface: Self.interface, method: "Notify",
                        arguments: Self.notifyArguments("Lunch"))
                    #expect(second == [.uint32(2)])
                    #expect(try await eventually(socket, delivers: ["2\ttest\tLunch\t[yes=Yes]"]))
                    let gdbus = try await runCommand(
                        "/usr/bin/gdbus",
                        ["call", "--session", "--dest", Self.interface, "--object-path", Self.path, "--method", "\(Self.interface).CloseNotification", "2"],
                        environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
                    #expect(gdbus.status == 0)
                    #expect(try #require(await next(&closed)).arguments.first == .uint32(2))
                    #expect(try await eventually(socket, delivers: []))
                    #expect(try await statusObject(socket)?["notifications"] as? Int == 0)
                }

                // A last call of the test's own marks the end of what to look at.
                let marker = try await client.callReturningMessage(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    method: "GetId")
                var repliers: Set<String> = []
                while let reply = await replies.next() {
                    if reply.destination == client.uniqueName && reply.replySerial != nil && reply.arguments == marker.arguments {
                        break
                    }
                    repliers.insert(reply.sender ?? "?")
                }
                #expect(repliers.isSubset(of: [daemon, "org.freedesktop.DBus"]), "replies came from \(repliers)")
                #expect(repliers.contains(daemon))
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func keepsRunningWhenTheDaemonLeaves() async throws {
        try await withPrivateBus { bus in
            try await withDBusMock(["--template", "notification_daemon"], owning: Self.interface, on: bus) { mock in
                let daemon = try #require(try await bus.connect().nameOwner(of: Self.interface))
                try await withMonitoringPhone(bus) { _, lines, socket in
                    _ = try await runCommand(
                        "/usr/bin/notify-send", ["-p", "Meeting"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
                    #expect(try await eventually(socket, delivers: ["1\tnotify-send\tMeeting\t[]"]))
                    await mock.stop(SIGTERM)
                    let left = await next(&lines) { $0.contains("left \(Self.interface)") }
                    #expect(left?.hasPrefix("relay-phone: monitor: the notification server \(daemon) left") == true)
                    let status = try await statusObject(socket)
                    #expect(status?["mode"] as? String == "monitor" && status?["serverOwner"] as? String == "none")
                    #expect(status?["notifications"] as? Int == 0)
                }
            }
        }
    }

    // MARK: Helpers

    /// Starts relay-phone beside the daemon, its log merged into its output, and hands `body` the
    /// ready line, the lines after it and the control socket. Stops it with SIGTERM (exit 0) after.
    private func withMonitoringPhone(
        _ bus: PrivateBus, _ body: (String, inout AsyncStream<String>.Iterator, String) async throws -> Void
    ) async throws {
        let directory = "/tmp/relay-monitor-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/phone.sock"
        let phone = try ChildProcess(
            RelayCtlTests.binary("relay-phone").path,
            ["--transport", "loopback", "--bus", bus.address, "--system-bus", "unix:path=\(directory)/no-system-bus", "--control-socket", socket, "--state-directory", socket + ".state", "--peer", socket + ".link"],
            mergingStandardError: true)
        var lines = phone.lines.makeAsyncIterator()
        guard let ready = await next(&lines, where: { $0.hasPrefix("ready: ") }) else {
            await phone.stop()
            Issue.record("relay-phone stopped before it was ready")
            return
        }
        do {
            try await body(ready, &lines, socket)
        } catch {
            await phone.stop()
            throw error
        }
        kill(phone.pid, SIGTERM)
        #expect(await phone.wait() == 0)
    }

    /// Whether `relayctl delivered` lists `expected` within a few seconds. The monitor records a
    /// notification when it sees the daemon's reply, which the client may see first, and relay-phone
    /// sends nothing then that could be awaited, so this asks again until it matches.
    private func eventually(_ socket: String, delivers expected: [String]) async throws -> Bool {
        for _ in 0..<250 {
            let listed = try await relayctl(["delivered", "--control-socket", socket])
            if listed.status == 0 && listed.output == expected.joined(separator: "\n") { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    private func statusObject(_ socket: String) async throws -> [String: Any]? {
        let status = try await relayctl(["status", "--phone", "--json", "--control-socket", socket])
        return try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
    }

    /// relayctl's exit status and its output with its errors.
    private func relayctl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let command = try ChildProcess(RelayCtlTests.binary("relayctl").path, arguments, mergingStandardError: true)
        var output: [String] = []
        for await line in command.lines { output.append(line) }
        return (await command.wait(), output.joined(separator: "\n"))
    }

    private static func notifyArguments(_ summary: String, replacing id: UInt32 = 0) -> [DBusValue] {
        [
            .string("test"), .uint32(id), .string(""), .string(summary), .string(""), .array(["yes", "Yes"]),
            .dictionary(keySignature: .string, valueSignature: .variant, entries: []), .int32(0),
        ]
    }
}
