import Foundation
import RelayDBus
import RelayTestSupport
import Testing

/// relay-phone's own API (org.relay.Notifications1, Docs/RICH-API.md) on a private bus, driven by
/// gdbus, by D-Bus connections acting as apps, and by relayctl, as a user would.
@Suite struct RichAPITests {
    static let name = "org.relay.Relay1"
    static let path = "/org/relay/Relay1"
    static let interface = "org.relay.Notifications1"
    static let app = "org.example.Social"

    @Test(.timeLimit(.minutes(1))) func postingAgainUpdatesInPlaceAndErrorsNameTheField() async throws {
        try await withPhone { bus, socket in
            // gdbus as an independent client.
            let posted = try await runCommand(
                "/usr/bin/gdbus",
                ["call", "--session", "--dest", Self.name, "--object-path", Self.path, "--method", "\(Self.interface).Post",
                 Self.app, #"{"identifier":"post-1","content":{"title":"Jane","body":"New photo","threadIdentifier":"jane"}}"#],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            #expect(posted.status == 0)
            let id = try #require(posted.output.firstMatch(of: /\(uint32 (\d+),\)/).flatMap { UInt32($0.1) })

            let update = try await relayctl(["notify", "--bus", bus.address, "--app-id", Self.app, "--id", "post-1", "--title", "Jane (edited)"])
            #expect(update == (0, "\(id)\tpost-1"))
            let client = try await bus.connect()
            let delivered = try await json(client, "GetDelivered", [.string(Self.app)])
            #expect(delivered.count == 1)
            #expect(delivered.first?["id"] as? Int == Int(id))
            #expect(((delivered.first?["request"] as? [String: Any])?["content"] as? [String: Any])?["title"] as? String == "Jane (edited)")
            let listed = try await relayctl(["delivered", "--json", "--control-socket", socket])
            #expect(listed.output.contains(#""api":"rich""#) && listed.output.contains(#""identifier":"post-1""#))

            // Validation and JSON errors: InvalidRequest, naming the field.
            let long = String(repeating: "x", count: 300)
            let tooLong = await dbusError(client, "Post", [.string(Self.app), .string(#"{"identifier":"p","content":{"title":"\#(long)"}}"#)])
            #expect(tooLong?.name.rawValue == "org.relay.Error.InvalidRequest")
            #expect(tooLong?.message == "request.content.title is 300 bytes long; the limit is 256 bytes (UTF-8)")
            let missing = await dbusError(client, "Post", [.string(Self.app), .string(#"{"content":{"title":"x"}}"#)])
            #expect(missing?.name.rawValue == "org.relay.Error.InvalidRequest" && missing?.message == "request.identifier is missing")
            let location = await dbusError(client, "Schedule", [
                .string(Self.app),
                .string(#"{"identifier":"geo","trigger":{"kind":"location","region":{"identifier":"home","latitude":52.5,"longitude":13.4,"radius":100,"notifyOnEntry":true,"notifyOnExit":false}}}"#),
            ])
            #expect(location?.message.contains("location triggers are not supported: Relay has no location source yet") == true)
            let refused = try await relayctlWithErrors(["notify", "--bus", bus.address, "--id", "p", "--title", long])
            #expect(refused.status == 1 && refused.output.contains("request.content.title is 300 bytes long"))
        }
    }

    @Test(.timeLimit(.minutes(1))) func responsesReachThePostingConnectionOnly() async throws {
        try await withPhone { bus, socket in
            let poster = try await bus.connect()
            let bystander = try await bus.connect()
            let phone = try #require(try await poster.nameOwner(of: Self.name))
            var responses = try await poster.signals(matching: .signal(interface: Self.interface, member: "Response")).makeAsyncIterator()
            // Everything relay-phone sends that the bus routes to the bystander, in order.
            var seen = try await bystander.signals(matching: .signal(sender: phone)).makeAsyncIterator()

            let categories = #"[{"identifier":"comment-category","actions":[{"identifier":"like","title":"Like"},{"identifier":"comment","title":"Comment","textInput":{"suggestedReplies":["Nice!"]}}]}]"#
            _ = try await call(poster, "SetCategories", [.string(Self.app), .string(categories)])
            let id = try await call(poster, "Post", [
                .string(Self.app), .string(#"{"identifier":"post-1","content":{"title":"Jane","categoryIdentifier":"comment-category"}}"#),
            ]).decode(0, as: UInt32.self)
            let listed = try await relayctl(["delivered", "--control-socket", socket])
            #expect(listed == (0, "\(id)\t\(Self.app)\tJane\t[default=Open like=Like comment=Comment]"))

            #expect(try await relayctl(["reply", String(id), "Nice!", "--control-socket", socket]).status == 0)
            let response = try #require(await responses.next())
            #expect(response.arguments == [.string(Self.app), .string("post-1"), .string("comment"), .string("Nice!")])
            #expect(response.destination == poster.uniqueName)

            // A broadcast after the response: if the bystander had been sent the response, it would come first.
            let other = try await bystander.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "Notify",
                arguments: [.string("x"), .uint32(0), .string(""), .string("s"), .string(""), .array([String]()),
                            .dictionary(keySignature: .string, valueSignature: .variant, entries: []), .int32(0)]
            ).decode(0, as: UInt32.self)
            #expect(try await relayctl(["dismiss", String(other), "--control-socket", socket]).status == 0)
            let next = try #require(await seen.next())
            #expect(next.member == "NotificationClosed" && next.arguments.first == .uint32(other))

            // relayctl notify --wait prints the action chosen, as notify-send --wait does.
            let waiting = try ChildProcess(
                RelayCtlTests.binary("relayctl").path,
                ["notify", "--wait", "--bus", bus.address, "--app-id", Self.app, "--id", "ask", "--title", "Q", "--category", "comment-category"])
            var lines = waiting.lines.makeAsyncIterator()
            let first = try #require(await lines.next())
            let waitingID = try #require(first.split(separator: "\t").first.flatMap { UInt32($0) })
            #expect(try await relayctl(["invoke", String(waitingID), "like", "--control-socket", socket]).status == 0)
            #expect(await lines.next() == "like")
            #expect(await waiting.wait() == 0)
        }
    }

    @Test(.timeLimit(.minutes(1))) func scheduledRequestsFireAndRepeatingOnesStayPending() async throws {
        try await withPhone { bus, _ in
            let client = try await bus.connect()
            let scheduled = try await relayctl(["schedule", "--bus", bus.address, "--app-id", Self.app, "--id", "soon", "--title", "Soon", "--in", "1"])
            #expect(scheduled.status == 0 && scheduled.output.hasPrefix("soon: once, 1 s after scheduling; next at "))
            let fired = try await awaitDelivered(client, "soon")
            #expect((fired["request"] as? [String: Any])?["trigger"] != nil)
            #expect(try await json(client, "GetPending", [.string(Self.app)]).isEmpty)

            // Every minute at a second two seconds from now: it fires soon, and stays pending a minute on.
            let second = (Calendar(identifier: .gregorian).component(.second, from: Date()) + 2) % 60
            let request = #"{"identifier":"minutely","content":{"title":"Tick"},"trigger":{"kind":"calendar","components":{"second":\#(second)},"repeats":true}}"#
            let first = try await call(client, "Schedule", [.string(Self.app), .string(request)]).decode(0, as: String.self)
            let delivered = try await awaitDelivered(client, "minutely")
            let firstDate = try #require(try? Date(first, strategy: .iso8601))
            let deliveredDate = try #require((delivered["date"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            #expect(deliveredDate >= firstDate)
            let pending = try await json(client, "GetPending", [.string(Self.app)])
            let next = try #require((pending.first?["nextFireDate"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            #expect(pending.count == 1 && next.timeIntervalSince(firstDate) == 60)
            let text = try await relayctl(["pending", "--bus", bus.address, "--app-id", Self.app])
            #expect(text.status == 0 && text.output.hasPrefix("minutely\t") && text.output.hasSuffix("\tTick"))
        }
    }

    @Test(.timeLimit(.minutes(1))) func removingPendingAndDelivered() async throws {
        try await withPhone { bus, socket in
            let client = try await bus.connect()
            #expect(try await relayctl(["schedule", "--bus", bus.address, "--app-id", Self.app, "--id", "later", "--title", "Later", "--in", "3600"]).status == 0)
            #expect(try await json(client, "GetPending", [.string(Self.app)]).count == 1)
            let unknown = try await relayctlWithErrors(["remove", "--pending", "--bus", bus.address, "--app-id", Self.app, "later", "nope"])
            #expect(unknown.status == 1 && unknown.output.contains("has no pending request with the identifier 'nope'; nothing was removed"))
            #expect(try await json(client, "GetPending", [.string(Self.app)]).count == 1)
            #expect(try await relayctl(["remove", "--pending", "--bus", bus.address, "--app-id", Self.app, "later"]).status == 0)
            #expect(try await json(client, "GetPending", [.string(Self.app)]).isEmpty)

            #expect(try await relayctl(["notify", "--bus", bus.address, "--app-id", Self.app, "--id", "now", "--title", "Now"]).status == 0)
            let gdbus = try await runCommand(
                "/usr/bin/gdbus",
                ["call", "--session", "--dest", Self.name, "--object-path", Self.path, "--method", "\(Self.interface).RemoveDelivered", Self.app, "['other']"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], mergingStandardError: true)
            #expect(gdbus.status != 0 && gdbus.output.contains("org.relay.Error.UnknownNotification"))
            #expect(try await relayctl(["remove", "--delivered", "--bus", bus.address, "--app-id", Self.app, "now", "--json"])
                == (0, #"{"appId":"org.example.Social","from":"delivered","removed":["now"]}"#))
            #expect(try await json(client, "GetDelivered", [.string(Self.app)]).isEmpty)
            #expect(try await relayctl(["delivered", "--control-socket", socket]) == (0, ""))
        }
    }

    @Test(.timeLimit(.minutes(1))) func relayctlSaysWhatToDoWhenRelayPhoneIsNotRunning() async throws {
        try await withPrivateBus { bus in
            let result = try await relayctlWithErrors(["notify", "--bus", bus.address, "--title", "x"])
            #expect(result.status == 1)
            #expect(result.output.contains(
                "relay-phone is not running on the bus at \(bus.address) (org.relay.Relay1 has no owner); start it with `relay-phone --transport loopback --bus \(bus.address)`"))
        }
    }

    // MARK: Helpers

    /// Starts relay-phone on a private bus, waits for its "ready:" line (printed once it owns both
    /// names), runs `body`, then stops it with SIGTERM, expecting a clean exit.
    private func withPhone(_ body: (PrivateBus, String) async throws -> Void) async throws {
        try await withRelayPhone { bus, _, socket in try await body(bus, socket) }
    }

    private func call(_ client: DBusConnection, _ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await client.call(destination: Self.name, path: Self.path, interface: Self.interface, method: method, arguments: arguments)
    }

    /// A method's JSON answer, as a list of objects.
    private func json(_ client: DBusConnection, _ method: String, _ arguments: [DBusValue]) async throws -> [[String: Any]] {
        let text = try await call(client, method, arguments).decode(0, as: String.self)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    /// The error a call ends with, or `nil` (recorded as an issue) if it succeeds.
    private func dbusError(_ client: DBusConnection, _ method: String, _ arguments: [DBusValue]) async -> DBusError? {
        do {
            _ = try await call(client, method, arguments)
            Issue.record("\(method) succeeded")
            return nil
        } catch {
            return error as? DBusError
        }
    }

    /// Polls `GetDelivered` until the app has `identifier` delivered, for at most ten seconds: the
    /// scheduler sends no signal when it delivers, and the test must not just sleep and hope.
    private func awaitDelivered(_ client: DBusConnection, _ identifier: String) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let delivered = try await json(client, "GetDelivered", [.string(Self.app)])
            if let entry = delivered.first(where: { ($0["request"] as? [String: Any])?["identifier"] as? String == identifier }) {
                return entry
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw DBusError(.timeout, "'\(identifier)' was not delivered within ten seconds")
    }

    private func relayctl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await runCommand(RelayCtlTests.binary("relayctl").path, arguments)
    }

    /// relayctl with its standard error (where its failures go) in the output.
    private func relayctlWithErrors(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await runCommand(RelayCtlTests.binary("relayctl").path, arguments, mergingStandardError: true)
    }
}

/// Runs a command to completion with its standard error merged into the output.
private func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], mergingStandardError: Bool
) async throws -> (status: Int32, output: String) {
    let command = try ChildProcess(executable, arguments, environment: environment, mergingStandardError: mergingStandardError)
    var output: [String] = []
    for await line in command.lines { output.append(line) }
    return (await command.wait(), output.joined(separator: "\n"))
}
