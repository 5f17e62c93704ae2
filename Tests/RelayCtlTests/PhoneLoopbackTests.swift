import Foundation
import RelayDBus
import RelayTestSupport
import Testing

/// relay-phone as the org.freedesktop.Notifications server on a private bus, driven by real
/// clients (notify-send, gdbus) and by relayctl through its control socket, as a user would.
@Suite struct PhoneLoopbackTests {
    static let interface = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    @Test(.timeLimit(.minutes(1))) func notifySendPrintsTheActionRelayctlInvokes() async throws {
        try await withPhone { bus, phone, socket in
            let monitor = try await bus.connect()
            var messages = try await monitor.becomeMonitor().makeAsyncIterator()
            let notifySend = try ChildProcess(
                "/usr/bin/notify-send", ["-A", "yes=Yes", "-A", "no=No", "--wait", "Meeting", "Join?"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            // Delivered is an event on the bus: the phone answers Notify once the centre holds it.
            let call = try #require(await next(&messages) { $0.kind == .methodCall && $0.member == "Notify" })
            let reply = try #require(await next(&messages) { $0.kind == .methodReturn && $0.replySerial == call.serial && $0.destination == call.sender })
            let id = try reply.arguments.decode(0, as: UInt32.self)

            let listed = try await relayctl(["delivered", "--control-socket", socket])
            #expect(listed == (0, "\(id)\tnotify-send\tMeeting\t[yes=Yes no=No]"))
            let json = try await relayctl(["delivered", "--json", "--control-socket", socket])
            let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            let entries = object?["notifications"] as? [[String: Any]]
            #expect(entries?.first?["sender"] as? String == call.sender)

            #expect(try await relayctl(["invoke", String(id), "maybe", "--control-socket", socket]).status == 1)
            #expect(try await relayctl(["invoke", String(id), "yes", "--control-socket", socket]).status == 0)
            var output: [String] = []
            for await line in notifySend.lines { output.append(line) }
            #expect(output == ["yes"])
            #expect(await notifySend.wait() == 0)
            // Not resident: invoking closed it.
            #expect(try await relayctl(["delivered", "--control-socket", socket]) == (0, ""))

            // A title with a tab and a line break stays one line of four fields.
            let odd = try ChildProcess(
                "/usr/bin/notify-send", ["Title\twith a tab\nand a second line", "Body"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            #expect(await odd.wait() == 0)
            let listedOdd = try await relayctl(["delivered", "--control-socket", socket])
            let fields = listedOdd.output.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(!listedOdd.output.contains("\n") && fields.count == 4, "\(listedOdd.output)")
            #expect(fields.count > 2 && fields[2] == "Title with a tab and a second line")
        }
    }

    @Test(.timeLimit(.minutes(1))) func capabilitiesCloseReasonsReplacementAndReplies() async throws {
        try await withPhone { bus, phone, socket in
            let capabilities = try await runCommand(
                "/usr/bin/gdbus", ["call", "--session", "--dest", Self.interface, "--object-path", Self.path, "--method", "\(Self.interface).GetCapabilities"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            #expect(capabilities.status == 0)
            #expect(capabilities.output.contains("'actions'") && capabilities.output.contains("'inline-reply'"))

            let client = try await bus.connect()
            let rule = DBusMatchRule.signal(interface: Self.interface)
            var signals = try await client.signals(matching: rule).makeAsyncIterator()
            let info = try await client.call(destination: Self.interface, path: Self.path, interface: Self.interface, method: "GetServerInformation")
            #expect(try info.decode(3, as: String.self) == "1.2")

            let first = try await notify(client, "First", timeout: 0)
            #expect(try await notify(client, "First again", replacing: first, timeout: 0) == first)
            #expect(try await notify(client, "Gone", replacing: 999, timeout: 0) == first + 1)

            _ = try await client.call(destination: Self.interface, path: Self.path, interface: Self.interface, method: "CloseNotification", arguments: [.uint32(first)])
            let closed = try #require(await next(&signals))
            #expect(closed.member == "NotificationClosed" && closed.arguments == [.uint32(first), .uint32(3)])
            // An unknown id: an empty reply and no signal (the next signal is the expiry below).
            _ = try await client.call(destination: Self.interface, path: Self.path, interface: Self.interface, method: "CloseNotification", arguments: [.uint32(first)])

            let expiring = try await notify(client, "Short", timeout: 50)
            let expired = try #require(await next(&signals))
            #expect(expired.member == "NotificationClosed" && expired.arguments == [.uint32(expiring), .uint32(1)])

            let chat = try await notify(client, "Chat", actions: ["inline-reply", "Reply"], timeout: 0)
            #expect(try await relayctl(["reply", String(chat), "on my way", "--control-socket", socket]).status == 0)
            let replied = try #require(await next(&signals))
            #expect(replied.member == "NotificationReplied" && replied.arguments == [.uint32(chat), .string("on my way")])
            let afterReply = try #require(await next(&signals))
            #expect(afterReply.arguments == [.uint32(chat), .uint32(2)])

            #expect(try await relayctl(["dismiss", String(first + 1), "--control-socket", socket]).status == 0)
            let dismissed = try #require(await next(&signals))
            #expect(dismissed.member == "NotificationClosed" && dismissed.arguments == [.uint32(first + 1), .uint32(2)])

            let status = try await relayctl(["status", "--phone", "--json", "--control-socket", socket])
            let object = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
            #expect(object?["role"] as? String == "phone")
            #expect(object?["notifications"] as? Int == 0)

            // A second server on the same bus says who owns the name instead of queueing.
            let second = try await runCommand(
                RelayCtlTests.binary("relay-phone").path,
                ["--transport", "loopback", "--bus", bus.address, "--control-socket", socket + ".second", "--state-directory", socket + ".second.state"])
            #expect(second.status != 0)
        }
    }

    /// An app that never lets its notifications go keeps its newest `ModelLimits.deliveredPerApp`:
    /// the oldest closes as expired, with its signal, and the count stays there.
    @Test(.timeLimit(.minutes(1))) func anAppsOldestClosesAsExpiredBeyondTheLimit() async throws {
        try await withPhone { bus, phone, socket in
            let client = try await bus.connect()
            let rule = DBusMatchRule.signal(interface: Self.interface, member: "NotificationClosed")
            var signals = try await client.signals(matching: rule).makeAsyncIterator()
            let limit = 1_000
            var first: UInt32 = 0
            for index in 0..<limit {
                let id = try await notify(client, "Build \(index)", timeout: 0)
                if index == 0 { first = id }
            }
            let newest = try await notify(client, "Build \(limit)", timeout: 0)
            let closed = try #require(await next(&signals))
            #expect(closed.arguments == [.uint32(first), .uint32(1)])
            let status = try await relayctl(["status", "--phone", "--json", "--control-socket", socket])
            let object = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
            #expect(object?["notifications"] as? Int == limit)
            #expect(newest == first + UInt32(limit))
        }
    }

    // MARK: Helpers

    /// Starts relay-phone on a private bus, waits for its "ready:" line, runs `body`, then stops
    /// it with SIGTERM (expecting a clean exit that removes the socket) however `body` ends.
    private func withPhone(_ body: (PrivateBus, ChildProcess, String) async throws -> Void) async throws {
        try await withRelayPhone(body)
    }

    private func notify(
        _ client: DBusConnection, _ summary: String, replacing id: UInt32 = 0, actions: [String] = [], timeout: Int32
    ) async throws -> UInt32 {
        let reply = try await client.call(
            destination: Self.interface, path: Self.path, interface: Self.interface, method: "Notify",
            arguments: [
                .string("test"), .uint32(id), .string(""), .string(summary), .string(""), .array(actions),
                .dictionary(keySignature: .string, valueSignature: .variant, entries: []), .int32(timeout),
            ])
        return try reply.decode(0, as: UInt32.self)
    }

    /// Runs relayctl to completion: its exit status and standard output.
    private func relayctl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await runCommand(RelayCtlTests.binary("relayctl").path, arguments)
    }
}
