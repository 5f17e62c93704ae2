import Foundation
import RelayDBus
import RelayTestSupport
import Synchronization
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

private func isError(_ name: DBusError.Name) -> (any Error) -> Bool {
    { ($0 as? DBusError)?.name == name }
}

/// Collects element names and `name` attributes from introspection XML, failing on malformed XML.
private final class IntrospectionParser: NSObject, XMLParserDelegate {
    var nodes: [String] = []
    var interfaces: [String] = []
    var methods: [String] = []
    var properties: [String: String] = [:]

    static func parse(_ xml: String) -> IntrospectionParser? {
        let delegate = IntrospectionParser()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = delegate
        return parser.parse() ? delegate : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard let name = attributes["name"] else { return }
        switch element {
        case "node": nodes.append(name)
        case "interface": interfaces.append(name)
        case "method": methods.append(name)
        case "property": properties[name] = attributes["access"]
        default: break
        }
    }
}

@Suite("Exported objects, properties and signals", .timeLimit(.minutes(1)))
struct ExportedObjectTests {
    @Test func introspectionDescribesObjectsAndChildren() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try TestService().export(on: server)
            try TestService().export(on: server, at: "/org/relay/Test/child/grandchild")
            func introspect(_ path: String) async throws -> String {
                try await client.call(
                    destination: server.uniqueName, path: path, interface: "org.freedesktop.DBus.Introspectable",
                    method: "Introspect"
                ).decode(0, as: String.self)
            }
            let object = try #require(IntrospectionParser.parse(try await introspect(TestService.path)))
            #expect(object.interfaces.contains(TestService.interface))
            #expect(object.interfaces.contains("org.freedesktop.DBus.Properties"))
            #expect(Set(["EchoBasics", "Park", "OpenPipe", "Introspect", "GetAll"]).isSubset(of: object.methods))
            #expect(object.properties == ["Name": "read", "Volume": "readwrite"])
            #expect(object.nodes == ["child"])

            let root = try #require(IntrospectionParser.parse(try await introspect("/")))
            #expect(root.nodes == ["org"] && root.interfaces.isEmpty)
            let intermediate = try #require(IntrospectionParser.parse(try await introspect("/org/relay/Test/child")))
            #expect(intermediate.nodes == ["grandchild"])
            await #expect(performing: { _ = try await introspect("/nowhere") }, throws: isError(.unknownObject))

            #expect(server.unexport(path: "/org/relay/Test/child/grandchild"))
            let after = try #require(IntrospectionParser.parse(try await introspect(TestService.path)))
            #expect(after.nodes.isEmpty)
        }
    }

    @Test func propertiesGetGetAllSetAndChangeSignal() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let observer = try await bus.connect()
            try TestService().export(on: server)
            let changes = try await observer.signals(
                matching: .propertiesChanged(path: TestService.path, interface: TestService.interface))
            var changeIterator = changes.makeAsyncIterator()

            func properties(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
                try await client.call(
                    destination: server.uniqueName, path: TestService.path,
                    interface: "org.freedesktop.DBus.Properties", method: method, arguments: arguments)
            }
            #expect(try await properties("Get", [.string(TestService.interface), .string("Volume")]) == [.variant(.int32(5))])
            #expect(try await properties("Get", [.string(""), .string("Name")]) == [.variant(.string("relay"))])
            let all = try await properties("GetAll", [.string(TestService.interface)]).decode(0, as: [String: DBusValue].self)
            #expect(all == ["Name": .string("relay"), "Volume": .int32(5)])

            #expect(try await properties("Set", [.string(TestService.interface), .string("Volume"), .variant(.int32(7))]).isEmpty)
            #expect(try await properties("Get", [.string(TestService.interface), .string("Volume")]) == [.variant(.int32(7))])
            try server.emitPropertiesChanged(
                path: TestService.path, interface: TestService.interface, changed: ["Volume": .int32(7)],
                invalidated: ["Name"])
            let change = try #require(await changeIterator.next())
            #expect(change.sender == server.uniqueName)
            #expect(change.arguments == [
                .string(TestService.interface), DBusValue(["Volume": DBusValue.int32(7)]), DBusValue(["Name"]),
            ])

            await #expect(
                performing: { _ = try await properties("Set", [.string(TestService.interface), .string("Name"), .variant(.string("x"))]) },
                throws: isError(.propertyReadOnly))
            await #expect(
                performing: { _ = try await properties("Set", [.string(TestService.interface), .string("Volume"), .variant(.string("x"))]) },
                throws: isError(.invalidArgs))
            await #expect(
                performing: { _ = try await properties("Set", [.string(TestService.interface), .string("Volume"), .variant(.int32(99))]) },
                throws: isError(.invalidArgs))
            await #expect(
                performing: { _ = try await properties("Get", [.string(TestService.interface), .string("Missing")]) },
                throws: isError(.unknownProperty))
            await #expect(
                performing: { _ = try await properties("GetAll", [.string("org.relay.Missing")]) },
                throws: isError(.unknownInterface))
            await #expect(performing: { _ = try await properties("Get", [.string("x")]) }, throws: isError(.invalidArgs))
        }
    }

    @Test func signalStreamsOnlySeeTheirOwnMatches() async throws {
        try await withPrivateBus { bus in
            let emitter = try await bus.connect()
            let impostor = try await bus.connect()
            let listener = try await bus.connect()
            #expect(try await emitter.requestName("org.relay.Signaller") == .primaryOwner)

            let pings = try await listener.signals(matching: .signal(interface: TestService.interface, member: "Ping"))
            let pongsFromOwner = try await listener.signals(
                matching: .signal(sender: "org.relay.Signaller", interface: TestService.interface, member: "Pong"))
            let allPongs = try await listener.signals(matching: .signal(interface: TestService.interface, member: "Pong"))
            var pingIterator = pings.makeAsyncIterator()
            var ownerIterator = pongsFromOwner.makeAsyncIterator()
            var allIterator = allPongs.makeAsyncIterator()

            // The impostor's Pong reaches the connection (through the broad rule) before the owner's.
            try impostor.emitSignal(path: "/x", interface: TestService.interface, name: "Pong", arguments: [.string("impostor")])
            #expect(await allIterator.next()?.arguments == [.string("impostor")])

            try emitter.emitSignal(path: "/x", interface: TestService.interface, name: "Ping", arguments: [.string("one")])
            try emitter.emitSignal(path: "/x", interface: TestService.interface, name: "Pong", arguments: [.string("two")])
            try emitter.emitSignal(path: "/x", interface: TestService.interface, name: "Pong", arguments: [.string("end")])

            #expect(await pingIterator.next()?.arguments == [.string("one")])
            #expect(await ownerIterator.next()?.arguments == [.string("two")])
            #expect(await ownerIterator.next()?.arguments == [.string("end")])
            #expect(await allIterator.next()?.arguments == [.string("two")])
        }
    }

    @Test func rawMatchRulesFeedTheUnfilteredStream() async throws {
        try await withPrivateBus { bus in
            let emitter = try await bus.connect()
            let listener = try await bus.connect()
            let everything = try await listener.signals()
            var iterator = everything.makeAsyncIterator()
            let rule = DBusMatchRule.signal(sender: emitter.uniqueName, member: "Tick")
            try await listener.addMatch(rule)
            try emitter.emitSignal(path: "/t", interface: TestService.interface, name: "Tick", arguments: [.uint32(1)])
            let tick = await next(&iterator) { $0.member == "Tick" }
            #expect(tick?.arguments == [.uint32(1)])
            #expect(tick?.path?.rawValue == "/t")
            try await listener.removeMatch(rule)
            await #expect(performing: { try await listener.removeMatch(rule) }, throws: isError(.matchRuleNotFound))
        }
    }

    @Test func aPendingCallIsAnsweredLaterWhileOthersAreServed() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let service = TestService()
            try service.export(on: server)
            var parked = service.parkedCalls.makeAsyncIterator()

            let pending = service.park("later", from: client, to: server)
            let call = try #require(await parked.next())
            #expect(call.sender == client.uniqueName)
            #expect(call.arguments == [.string("later")])

            // The parked handler blocks neither the server's loop nor the client's.
            let echoed = try await client.call(
                destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                method: "Echo", arguments: [.string("meanwhile")])
            #expect(echoed == [.string("meanwhile")])

            service.release.open()
            #expect(try await pending.value == [.string("later")])
        }
    }

    @Test func independentClientsCanCallAndIntrospect() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            try TestService().export(on: server)
            #expect(try await server.requestName("org.relay.Service") == .primaryOwner)

            let gdbus = try await runCommand("/usr/bin/gdbus", [
                "call", "--address", bus.address, "--dest", "org.relay.Service", "--object-path", TestService.path,
                "--method", "\(TestService.interface).Echo", "hello from gdbus",
            ])
            #expect(gdbus.status == 0)
            #expect(gdbus.output.trimmingCharacters(in: .whitespacesAndNewlines) == "('hello from gdbus',)")

            let sent = try await runCommand("/usr/bin/dbus-send", [
                "--bus=\(bus.address)", "--print-reply=literal", "--dest=org.relay.Service", TestService.path,
                "org.freedesktop.DBus.Properties.Get", "string:\(TestService.interface)", "string:Volume",
            ])
            #expect(sent.status == 0)
            #expect(sent.output.contains("int32 5"))

            // GLib's own parser must accept the introspection data.
            let introspection = try await runCommand("/usr/bin/gdbus", [
                "introspect", "--address", bus.address, "--dest", "org.relay.Service", "--object-path", TestService.path,
            ])
            #expect(introspection.status == 0)
            #expect(introspection.output.contains("EchoContainers("))
            #expect(introspection.output.contains("readwrite i Volume"))
        }
    }

    @Test func notifySendWaitsForTheClosedSignal() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let notifications = Mutex<[String]>([])
            let path = "/org/freedesktop/Notifications"
            let interface = "org.freedesktop.Notifications"
            let (notified, notifiedContinuation) = AsyncStream.makeStream(of: UInt32.self)
            try server.export([
                DBusInterface(
                    interface,
                    methods: [
                        DBusMethod(
                            "Notify",
                            inputs: ["app_name", "replaces_id", "app_icon", "summary", "body", "actions", "hints", "expire_timeout"]
                                .enumerated().map { DBusArgument($0.element, ["s", "u", "s", "s", "s", "as", "a{sv}", "i"][$0.offset]) },
                            outputs: [DBusArgument("id", "u")]
                        ) { call in
                            let summary = try call.arguments.decode(3, as: String.self)
                            notifications.withLock { $0.append(summary) }
                            notifiedContinuation.yield(42)
                            return [.uint32(42)]
                        },
                        DBusMethod("GetCapabilities", outputs: [DBusArgument(nil, "as")]) { _ in [DBusValue(["body"])] },
                        DBusMethod("GetServerInformation", outputs: ["name", "vendor", "version", "spec"].map { DBusArgument($0, "s") }) {
                            _ in [.string("relay"), .string("relay"), .string("0.1"), .string("1.2")]
                        },
                        DBusMethod("CloseNotification", inputs: [DBusArgument("id", "u")]) { _ in [] },
                    ],
                    signals: [
                        DBusSignalDeclaration("NotificationClosed", arguments: [DBusArgument("id", "u"), DBusArgument("reason", "u")]),
                        DBusSignalDeclaration("ActionInvoked", arguments: [DBusArgument("id", "u"), DBusArgument("action_key", "s")]),
                    ])
            ], at: path)
            #expect(try await server.requestName(interface, flags: [.doNotQueue]) == .primaryOwner)

            // stdbuf makes notify-send's stdout line-buffered, so the id arrives when it is printed.
            let client = try ChildProcess(
                "/usr/bin/stdbuf", ["-oL", "/usr/bin/notify-send", "--wait", "--print-id", "Relay", "Hello wearable"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            // If notify-send gives up early, end the wait for its notification instead of hanging.
            let watchdog = Task {
                _ = await client.wait()
                notifiedContinuation.finish()
            }
            defer { watchdog.cancel() }
            do {
                var notifiedIterator = notified.makeAsyncIterator()
                var output = client.lines.makeAsyncIterator()
                let id = try #require(await notifiedIterator.next())
                #expect(notifications.withLock { $0 } == ["Relay"])
                // notify-send prints the id once it has the reply; only then is it listening for this id.
                #expect(await output.next() == "42")
                try server.emitSignal(
                    path: path, interface: interface, name: "NotificationClosed", arguments: [.uint32(id), .uint32(2)])
                #expect(await client.wait() == 0)
            } catch {
                await client.stop()
                throw error
            }
        }
    }
}
