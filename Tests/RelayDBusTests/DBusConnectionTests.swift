import Foundation
import RelayDBus
import RelayTestSupport
import Testing

private func isError(_ name: DBusError.Name) -> (any Error) -> Bool {
    { ($0 as? DBusError)?.name == name }
}

@Suite("Connections, names and method calls", .timeLimit(.minutes(1)))
struct DBusConnectionTests {
    @Test func connectsAndGetsAUniqueName() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            #expect(connection.uniqueName.hasPrefix(":"))
            #expect(connection.isConnected)
            let id = try await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "GetId")
            #expect(try id.decode(0, as: String.self).count == 32)
        }
    }

    @Test func connectingToNothingThrows() async {
        await #expect(throws: DBusError.self) {
            _ = try await DBusConnection.connect(to: .address("unix:path=/nonexistent/relay-test-socket"))
        }
        await #expect(throws: DBusError.self) { _ = try await DBusConnection.connect(to: .address("bogus")) }
    }

    @Test func nameOwnershipWithCompetingConnections() async throws {
        try await withPrivateBus { bus in
            let first = try await bus.connect()
            let second = try await bus.connect()
            let name = "org.relay.Contested"
            let owners = try await second.signals(matching: .nameOwnerChanged(name: name))
            var ownerChanges = owners.makeAsyncIterator()
            let lost = try await first.signals(matching: .signal(sender: "org.freedesktop.DBus", member: "NameLost"))
            var lostNames = lost.makeAsyncIterator()

            #expect(try await first.requestName(name, flags: [.allowReplacement]) == .primaryOwner)
            #expect(try await first.requestName(name, flags: [.allowReplacement]) == .alreadyOwner)
            #expect(try await second.requestName(name, flags: [.doNotQueue]) == .exists)
            #expect(try await second.requestName(name) == .inQueue)
            #expect(try await second.nameOwner(of: name) == first.uniqueName)

            #expect(try await second.requestName(name, flags: [.replaceExisting]) == .primaryOwner)
            let lostName = await next(&lostNames) { $0.arguments.first == .string(name) }
            #expect(lostName != nil)
            let change = await next(&ownerChanges) { $0.arguments.last == .string(second.uniqueName) }
            #expect(change?.arguments == [.string(name), .string(first.uniqueName), .string(second.uniqueName)])

            // The replaced owner did not ask not to be queued, so it waits in the queue and can leave it.
            #expect(try await first.releaseName(name) == .released)
            #expect(try await second.releaseName(name) == .released)
            #expect(try await second.releaseName(name) == .nonExistent)
            #expect(try await first.nameOwner(of: name) == nil)
        }
    }

    @Test func everyBasicTypeRoundTrips() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try TestService().export(on: server)
            let values: [DBusValue] = [
                .byte(255), .boolean(true), .int16(-32768), .uint16(65535), .int32(-2_147_483_648),
                .uint32(4_294_967_295), .int64(-9_223_372_036_854_775_808), .uint64(18_446_744_073_709_551_615),
                .double(-1.5e300), .string("grüße, 世界 🚀"), .objectPath(try DBusObjectPath("/a/b_c/d0")),
                .signature(try DBusSignature("a{sv}(ih)")),
            ]
            let reply = try await client.call(
                destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                method: "EchoBasics", arguments: values)
            #expect(reply == values)
        }
    }

    @Test func containersRoundTrip() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try TestService().export(on: server)
            let nested: [String: DBusValue] = [
                "name": .string("relay"),
                "inner": DBusValue(["depth": DBusValue.int32(2), "list": DBusValue(["x", "y"])] as [String: DBusValue]),
                "wrapped": .variant(.variant(.boolean(false))),
            ]
            let values: [DBusValue] = [
                DBusValue(nested),
                .structure([.string("record"), .int32(7), DBusValue(["k": "v"])]),
                DBusValue([String]()),
                DBusValue([String: [String: DBusValue]]()),
                DBusValue([DBusValue.uint16(1), .string("two"), .array(elementSignature: .byte, elements: [])]),
                DBusValue(Array((0...255).map(UInt8.init)) + Array(repeating: 0, count: 100_000)),
            ]
            let reply = try await client.call(
                destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                method: "EchoContainers", arguments: values)
            // A byte array arrives as one block of bytes, however it was built.
            var expected = values
            expected[4] = DBusValue([DBusValue.uint16(1), .string("two"), .bytes([])])
            #expect(reply == expected)
            #expect(try reply.decode(0, as: [String: DBusValue].self) == nested)
            #expect(try reply.decode(2, as: [String].self).isEmpty)
            #expect(try reply.decode(5, as: [UInt8].self).count == 100_256)
        }
    }

    @Test func aLargeByteArrayArrivesAsOneBlock() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try TestService().export(on: server)
            let pixels = (0..<4_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let sent: [DBusValue] = [
                DBusValue([String: DBusValue]()), .structure([.string(""), .int32(0), DBusValue([String: String]())]),
                DBusValue([String]()), DBusValue([String: [String: DBusValue]]()),
                DBusValue([DBusValue.structure([.int32(1), .bytes(pixels)])]), .bytes(pixels),
            ]
            let reply = try await client.call(
                destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                method: "EchoContainers", arguments: sent)
            #expect(reply == sent)
            guard reply.count == 6, case .bytes(let received) = reply[5] else {
                Issue.record("the bytes came back as \(reply.last?.description ?? "nothing")")
                return
            }
            #expect(received == pixels)
        }
    }

    @Test func fileDescriptorsPassBothWays() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try TestService().export(on: server)

            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            let source = DBusUnixFD(takingOwnershipOf: ends[0])
            do {
                let sink = DBusUnixFD(takingOwnershipOf: ends[1])
                _ = try await client.call(
                    destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                    method: "WriteGreeting", arguments: [.unixFD(sink)])
            }
            // The server wrote into its duplicate of the write end before replying.
            #expect(readString(from: source.fileDescriptor, count: 20) == "hello through a pipe")

            let reply = try await client.call(
                destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                method: "OpenPipe")
            let received = try reply.decode(0, as: DBusUnixFD.self)
            #expect(readString(from: received.fileDescriptor, count: 4) == "ping")
        }
    }

    @Test func errorRepliesSurfaceAsTypedErrors() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try TestService().export(on: server)
            func call(_ method: String, path: String = TestService.path, interface: String? = TestService.interface,
                      _ arguments: [DBusValue] = []) async throws {
                _ = try await client.call(
                    destination: server.uniqueName, path: path, interface: interface, method: method,
                    arguments: arguments)
            }
            do {
                try await call("Fail")
                Issue.record("Fail returned")
            } catch let error as DBusError {
                #expect(error.name == "org.relay.Test.Error.Refused")
                #expect(error.message == "not today")
            }
            await #expect(performing: { try await call("Crash") }, throws: isError(.failed))
            await #expect(performing: { try await call("Lie") }, throws: isError(.failed))
            await #expect(performing: { try await call("Nope") }, throws: isError(.unknownMethod))
            await #expect(performing: { try await call("Nope", interface: nil) }, throws: isError(.unknownMethod))
            await #expect(
                performing: { try await call("Echo", interface: "org.relay.Missing", [.string("x")]) },
                throws: isError(.unknownInterface))
            await #expect(
                performing: { try await call("Echo", path: "/org/relay/Elsewhere", [.string("x")]) },
                throws: isError(.unknownObject))
            await #expect(performing: { try await call("Echo", [.int32(1)]) }, throws: isError(.invalidArgs))
            await #expect(performing: { try await call("Echo") }, throws: isError(.invalidArgs))
            // Without an interface, the first interface with a method of that name answers.
            let echoed = try await client.call(
                destination: server.uniqueName, path: TestService.path, interface: nil, method: "Echo",
                arguments: [.string("any interface")])
            #expect(echoed == [.string("any interface")])
        }
    }

    @Test func invalidArgumentsAreRejectedBeforeReachingLibdbus() async throws {
        try await withPrivateBus { bus in
            let client = try await bus.connect()
            func call(path: String = "/", destination: String = ":1.1", method: String = "M",
                      _ arguments: [DBusValue] = []) async throws {
                _ = try await client.call(
                    destination: destination, path: path, interface: "org.relay.I", method: method,
                    arguments: arguments)
            }
            await #expect(performing: { try await call(path: "no/slash") }, throws: isError(.invalidArgs))
            await #expect(performing: { try await call(destination: "not a name") }, throws: isError(.invalidArgs))
            await #expect(performing: { try await call(method: "9lives") }, throws: isError(.invalidArgs))
            await #expect(performing: { try await call([.string("nul\u{0}inside")]) }, throws: isError(.invalidArgs))
            await #expect(
                performing: { try await call([.array(elementSignature: .string, elements: [.int32(1)])]) },
                throws: isError(.invalidArgs))
            await #expect(performing: { try await call([.structure([])]) }, throws: isError(.invalidArgs))
            // libdbus would abort the process on a byte array over the specification's 64 MiB.
            let tooLong = [UInt8](repeating: 1, count: 64 * 1024 * 1024 + 1)
            await #expect(performing: { try await call([.bytes(tooLong)]) }, throws: isError(.invalidArgs))
            #expect(throws: DBusError.self) {
                try client.emitSignal(path: "/", interface: "bad", name: "Ping")
            }
            #expect(throws: DBusError.self) {
                try client.export([DBusInterface("org.relay.Bad", methods: [DBusMethod("M", inputs: [DBusArgument(nil, "a")]) { _ in [] }])], at: "/x")
            }
        }
    }

    @Test func timeoutsProduceNoReply() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let service = TestService()
            try service.export(on: server)
            let started = ContinuousClock.now
            await #expect(
                performing: {
                    _ = try await client.call(
                        destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                        method: "Park", arguments: [.string("slow")], timeout: .milliseconds(200))
                }, throws: isError(.noReply))
            // libdbus's own timer (driven by the connection's loop) fired, not some other failure.
            #expect(started.duration(to: .now) >= .milliseconds(150))
            service.release.open()
        }
    }

    @Test func cancellingACallThrowsCancellationError() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let service = TestService()
            try service.export(on: server)
            var parked = service.parkedCalls.makeAsyncIterator()
            let pending = service.park("cancel me", from: client, to: server)
            _ = await parked.next()
            pending.cancel()
            await #expect(throws: CancellationError.self) { _ = try await pending.value }
            service.release.open()
        }
    }

    @Test func closedConnectionsRefuseWork() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            await connection.close()
            #expect(!connection.isConnected)
            #expect(try await connection.waitUntilDisconnected() == .closed)
            await #expect(performing: { _ = try await connection.nameOwner(of: "org.relay.X") },
                          throws: isError(.disconnected))
            #expect(throws: DBusError.self) { try connection.emitSignal(path: "/", interface: "org.relay.I", name: "S") }
            await connection.close()
        }
    }
}

private func readString(from descriptor: Int32, count: Int) -> String {
    var bytes = [UInt8](repeating: 0, count: count)
    var total = 0
    while total < count {
        let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, count - total) }
        if got <= 0 { break }
        total += got
    }
    return String(decoding: bytes[..<total], as: UTF8.self)
}
