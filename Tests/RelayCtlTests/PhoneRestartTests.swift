import Foundation
import PhoneAgent
import RelayDBus
import RelayStore
import RelayTestSupport
import Testing

/// relay-phone keeps what apps gave it across a restart: delivered notifications (with their
/// ids), the apps' categories and their scheduled requests, all from its database.
@Suite struct PhoneRestartTests {
    static let name = "org.relay.Relay1"
    static let path = "/org/relay/Relay1"
    static let interface = "org.relay.Notifications1"
    static let app = "org.example.Social"

    /// A state folder and the arguments of a relay-phone on it, for the test's two lives of it.
    private static func withPhoneState(
        _ bus: PrivateBus, _ body: (_ socket: String, _ arguments: [String]) async throws -> Void
    ) async throws {
        let directory = "/tmp/relay-restart-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/phone.sock"
        try await body(
            socket,
            [
                "--transport", "loopback", "--bus", bus.address, "--control-socket", socket,
                "--state-directory", directory + "/state", "--peer", directory + "/link",
            ])
    }

    @Test(.timeLimit(.minutes(1))) func centreCategoriesAndScheduleSurviveARestart() async throws {
        try await withPrivateBus { bus in try await Self.withPhoneState(bus) { socket, arguments in

            let first = try await Self.start(arguments)
            let client = try await DBusConnection.connect(to: .address(bus.address))
            _ = try await call(client, "SetCategories", [
                .string(Self.app),
                .string(#"[{"identifier":"comment-category","actions":[{"identifier":"like","title":"Like"}]}]"#),
            ])
            _ = try await call(client, "Schedule", [
                .string(Self.app),
                .string(#"{"identifier":"later","content":{"title":"Later"},"trigger":{"kind":"timeInterval","seconds":3600}}"#),
            ])
            let posted = try await call(client, "Post", [
                .string(Self.app),
                .string(#"{"identifier":"post-1","content":{"title":"Jane","body":"New photo","categoryIdentifier":"comment-category"}}"#),
            ]).decode(0, as: UInt32.self)
            let notify = try await client.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "Notify",
                arguments: [
                    .string("notify-send"), .uint32(0), .string(""), .string("Meeting"), .string("Join?"),
                    .array(["yes", "Yes"]), .dictionary(keySignature: .string, valueSignature: .variant, entries: []), .int32(0),
                ]
            ).decode(0, as: UInt32.self)
            await client.close()
            await Self.stopCleanly(first)

            let second = try await Self.start(arguments)
            let again = try await DBusConnection.connect(to: .address(bus.address))
            let pending = try await call(again, "GetPending", [.string(Self.app)]).decode(0, as: String.self)
            #expect(pending.contains("\"later\""), "pending after the restart: \(pending)")
            let categories = try await call(again, "GetCategories", [.string(Self.app)]).decode(0, as: String.self)
            #expect(categories.contains("comment-category"), "categories after the restart: \(categories)")
            let delivered = try await runCommand(RelayCtlTests.binary("relayctl").path, ["delivered", "--control-socket", socket])
            #expect(delivered.output.contains("\(posted)\t\(Self.app)\tJane"), "\(delivered.output)")
            #expect(delivered.output.contains("\(notify)\tnotify-send\tMeeting"), "\(delivered.output)")
            // New ids continue after the restored ones.
            let next = try await again.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "Notify",
                arguments: [
                    .string("notify-send"), .uint32(0), .string(""), .string("Next"), .string(""),
                    .array([String]()), .dictionary(keySignature: .string, valueSignature: .variant, entries: []), .int32(0),
                ]
            ).decode(0, as: UInt32.self)
            #expect(next > max(posted, notify))
            await again.close()
            await Self.stopCleanly(second)
        } }
    }

    @Test(.timeLimit(.minutes(1))) func expiriesSurviveAKill() async throws {
        try await withPrivateBus { bus in try await Self.withPhoneState(bus) { socket, arguments in
            let first = try await Self.start(arguments)
            let client = try await DBusConnection.connect(to: .address(bus.address))
            var closed = try await client.signals(
                matching: .signal(interface: "org.freedesktop.Notifications", member: "NotificationClosed")
            ).makeAsyncIterator()
            let soon = try await Self.notify(client, "Soon", expiring: 1500)
            let later = try await Self.notify(client, "Later", expiring: 600_000)
            // Killed before the first expiry: only the stored record can make it happen.
            await first.stop(SIGKILL)

            let second = try await Self.start(arguments)
            let signal = await closed.next()
            #expect(signal?.arguments == [.uint32(soon), .uint32(1)], "the restored expiry fired: \(String(describing: signal))")
            let delivered = try await runCommand(RelayCtlTests.binary("relayctl").path, ["delivered", "--control-socket", socket])
            #expect(!delivered.output.contains("\tSoon"), "\(delivered.output)")
            #expect(delivered.output.contains("\(later)\tnotify-send\tLater"), "the later one still waits: \(delivered.output)")
            await client.close()
            await Self.stopCleanly(second)
        } }
    }

    @Test(.timeLimit(.minutes(1))) func idsOfClosedNotificationsAreNotHandedOutAgainAfterAKill() async throws {
        try await withPrivateBus { bus in try await Self.withPhoneState(bus) { _, arguments in
            let first = try await Self.start(arguments)
            let client = try await DBusConnection.connect(to: .address(bus.address))
            let kept = try await Self.notify(client, "Kept")
            let closed = try await Self.notify(client, "Closed")
            try await Self.closeNotification(client, closed)
            await first.stop(SIGKILL)

            // The app that posted "Closed" may still hold its id; another app must not get it.
            let second = try await Self.start(arguments)
            let next = try await Self.notify(client, "Next")
            #expect(closed > kept)
            #expect(next > closed, "id \(next) after \(closed) was closed and the phone restarted")
            await client.close()
            await Self.stopCleanly(second)
        } }
    }

    @Test(.timeLimit(.minutes(1))) func theManualLockOverrideSurvivesAKillUntilCleared() async throws {
        try await withPrivateBus { bus in try await Self.withPhoneState(bus) { socket, arguments in
            let relayctl = RelayCtlTests.binary("relayctl").path
            func lockSource() async throws -> String? {
                let output = try await runCommand(relayctl, ["status", "--phone", "--json", "--control-socket", socket]).output
                return (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["lockSource"] as? String
            }
            let first = try await Self.start(arguments)
            #expect(try await runCommand(relayctl, ["lock", "--control-socket", socket]).output == "locked (manual)")
            await first.stop(SIGKILL)

            let second = try await Self.start(arguments)
            #expect(try await lockSource() == "manual")
            #expect(try await runCommand(relayctl, ["lock", "--auto", "--control-socket", socket]).status == 0)
            await Self.stopCleanly(second)

            let third = try await Self.start(arguments)
            // Automatic again: nothing on these buses says whether it is locked, so it counts as headless.
            #expect(try await lockSource() == "headless")
            await Self.stopCleanly(third)
        } }
    }

    @Test(.timeLimit(.minutes(1))) func aDiskThatRefusesWritesStopsThePhoneWithItsReason() async throws {
        try await withPrivateBus { bus in try await Self.withPhoneState(bus) { _, arguments in
            // Files may grow to 400 KiB: the write-ahead log soon cannot, and the write fails
            // as on a full disk (EFBIG, with SIGXFSZ ignored) instead of killing the process.
            let phone = try ChildProcess(
                "/bin/bash", ["-c", #"trap "" XFSZ; ulimit -f 400; exec "$0" "$@""#, RelayCtlTests.binary("relay-phone").path] + arguments,
                mergingStandardError: true)
            var lines = phone.lines.makeAsyncIterator()
            while let line = await lines.next(), !line.hasPrefix("ready:") {}
            let client = try await DBusConnection.connect(to: .address(bus.address))
            let body = String(repeating: "A long body that fills the log. ", count: 500)
            var answered = 0
            for index in 0..<400 {
                guard (try? await Self.notify(client, "Filling \(index)", body: body)) != nil else { break }
                answered += 1
            }
            var output: [String] = []
            while let line = await lines.next() { output.append(line) }
            #expect(await phone.wait() == 74, "exit status EX_IOERR")
            #expect(answered > 0 && answered < 400, "\(answered) answered before the disk refused")
            #expect(output.contains { $0.contains("could not store a change") && $0.contains("Check the state directory's disk") }, "\(output.suffix(3))")
            await client.close()
        } }
    }

    /// Calls read from the bus at once are stored with one commit (NotificationServer's
    /// `committingDeliveriesByRound`): each still gets an id of its own, and none is answered
    /// before it is on disk.
    @Test(.timeLimit(.minutes(1))) func callsSentTogetherAreEachStoredBeforeTheirAnswer() async throws {
        try await withPrivateBus { bus in try await Self.withPhoneState(bus) { socket, arguments in
            let first = try await Self.start(arguments)
            guard let flag = arguments.firstIndex(of: "--state-directory") else { throw PhoneRestartError("no state directory") }
            // Read beside relay-phone, as another process: it sees what is committed.
            let database = try RelayDatabase(
                path: StateDirectory(path: arguments[flag + 1]).file("phone.sqlite"), migrations: PhoneSchema.migrations)
            let client = try await DBusConnection.connect(to: .address(bus.address))
            let ids = try await withThrowingTaskGroup(of: (String, UInt32, Bool).self) { group in
                for index in 0..<64 {
                    group.addTask {
                        let id = try await Self.notify(client, "Batch \(index)")
                        let stored = try database.read(PhoneSchema.loadNotifications).contains { $0.centreID == id }
                        return ("Batch \(index)", id, stored)
                    }
                }
                return try await group.reduce(into: [String: UInt32]()) { ids, answer in
                    #expect(answer.2, "\(answer.0) was answered with id \(answer.1) before it was stored")
                    ids[answer.0] = answer.1
                }
            }
            #expect(Set(ids.values).count == 64, "ids handed out: \(ids.values.sorted())")
            await first.stop(SIGKILL)

            let second = try await Self.start(arguments)
            let stored = try await Self.delivered(socket)
            for (title, id) in ids.sorted(by: { $0.value < $1.value }) {
                #expect(stored.contains("\(id)\tnotify-send\t\(title)"), "answered with \(id) but not stored: \(title)")
            }
            await client.close()
            await Self.stopCleanly(second)
        } }
    }

    /// An update and a close sent together, as an app may, likely read in one round: after a
    /// kill the notification is gone, not back with the update's content.
    @Test(.timeLimit(.minutes(1))) func aCloseSentWithTheUpdateBeforeItStaysClosedAfterAKill() async throws {
        try await withPrivateBus { bus in try await Self.withPhoneState(bus) { socket, arguments in
            let first = try await Self.start(arguments)
            let client = try await DBusConnection.connect(to: .address(bus.address))
            let id = try await Self.notify(client, "Upload")
            // Started at once on this thread, so the update leaves before the close.
            let update = Task.immediate { try await Self.notify(client, "Upload done", replacing: id) }
            try await Self.closeNotification(client, id)
            #expect(try await update.value == id)
            await first.stop(SIGKILL)

            let second = try await Self.start(arguments)
            let stored = try await Self.delivered(socket)
            #expect(stored.isEmpty, "left on the phone after the restart: \(stored)")
            await client.close()
            await Self.stopCleanly(second)
        } }
    }

    /// `relayctl delivered`, a line per notification cut to its id, app and title.
    private static func delivered(_ socket: String) async throws -> Set<String> {
        let listed = try await runCommand(RelayCtlTests.binary("relayctl").path, ["delivered", "--control-socket", socket])
        try #require(listed.status == 0, "relayctl delivered: \(listed.output)")
        return Set(listed.output.split(separator: "\n").map { $0.split(separator: "\t").prefix(3).joined(separator: "\t") })
    }

    /// `CloseNotification` of `id`, as an app sends it.
    private static func closeNotification(_ client: DBusConnection, _ id: UInt32) async throws {
        _ = try await client.call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", method: "CloseNotification", arguments: [.uint32(id)])
    }

    /// Stops relay-phone as systemd does, and expects it to exit cleanly.
    private static func stopCleanly(_ phone: ChildProcess) async {
        kill(phone.pid, SIGTERM)
        #expect(await phone.wait() == 0)
    }

    /// `Notify` from notify-send with a title and no actions; the id it was given.
    private static func notify(
        _ client: DBusConnection, _ title: String, body: String = "", expiring milliseconds: Int32 = 0, replacing: UInt32 = 0
    ) async throws -> UInt32 {
        try await client.call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", method: "Notify",
            arguments: [
                .string("notify-send"), .uint32(replacing), .string(""), .string(title), .string(body), .array([String]()),
                .dictionary(keySignature: .string, valueSignature: .variant, entries: []), .int32(milliseconds),
            ]
        ).decode(0, as: UInt32.self)
    }

    @Test(.timeLimit(.minutes(1))) func signalsStoredButNotEmittedLeaveAtTheNextStart() async throws {
        try await withPrivateBus { bus in try await Self.withPhoneState(bus) { _, arguments in
            // What a relay-phone killed between applying the wearable's response and emitting
            // its signals leaves behind: the signals, stored with the response.
            guard let flag = arguments.firstIndex(of: "--state-directory") else { throw PhoneRestartError("no state directory") }
            let state = StateDirectory(path: arguments[flag + 1])
            try state.prepare()
            let database = try RelayDatabase(path: state.file("phone.sqlite"), migrations: PhoneSchema.migrations)
            let client = try await DBusConnection.connect(to: .address(bus.address))
            let busID = try await client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "GetId"
            ).decode(0, as: String.self)
            let stored = [NotificationSignal.actionInvoked(id: 7, key: "yes"), .closed(id: 7, reason: .dismissedByUser)]
            try database.write { db in
                // One for a bus of before (the session restarted): its names are others' now.
                try SignalOutboxTable.append(db, [NotificationSignal.actionInvoked(id: 6, key: "stale").stored], bus: "0123456789abcdef")
                try SignalOutboxTable.append(db, stored.map(\.stored), bus: busID)
            }

            var signals = try await client.signals(matching: .signal(interface: "org.freedesktop.Notifications")).makeAsyncIterator()
            let phone = try await Self.start(arguments)
            let first = await signals.next()
            let second = await signals.next()
            #expect(first?.member == "ActionInvoked" && first?.arguments == [.uint32(7), .string("yes")])
            #expect(second?.member == "NotificationClosed" && second?.arguments == [.uint32(7), .uint32(2)])
            await Self.stopCleanly(phone)
            // Emitted once: gone from the store, so the next start does not emit them again.
            #expect(try database.read(SignalOutboxTable.load).isEmpty)
            await client.close()
        } }
    }

    private static func start(_ arguments: [String]) async throws -> ChildProcess {
        let phone = try ChildProcess(RelayCtlTests.binary("relay-phone").path, arguments)
        var lines = phone.lines.makeAsyncIterator()
        guard let ready = await lines.next(), ready.hasPrefix("ready:") else {
            await phone.stop()
            throw PhoneRestartError("relay-phone did not become ready")
        }
        return phone
    }

    private func call(_ client: DBusConnection, _ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await client.call(destination: Self.name, path: Self.path, interface: Self.interface, method: method, arguments: arguments)
    }
}

private struct PhoneRestartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
