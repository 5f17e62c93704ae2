import RelayDBus
import RelayTestSupport
import Testing

@Suite("Monitoring and disconnection", .timeLimit(.minutes(1)))
struct MonitorAndDisconnectTests {
    @Test func aMonitorSeesACallBetweenTwoOtherConnections() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let monitor = try await bus.connect()
            try TestService().export(on: server)
            let messages = try await monitor.becomeMonitor()
            var iterator = messages.makeAsyncIterator()

            let reply = try await client.callReturningMessage(
                destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                method: "Echo", arguments: [.string("observed")])

            let call = try #require(await next(&iterator) { $0.kind == .methodCall && $0.member == "Echo" })
            #expect(call.sender == client.uniqueName)
            #expect(call.destination == server.uniqueName)
            #expect(call.arguments == [.string("observed")])
            let answer = try #require(await next(&iterator) { $0.kind == .methodReturn && $0.replySerial == call.serial })
            #expect(answer.sender == server.uniqueName)
            #expect(answer.serial == reply.serial)
            #expect(answer.arguments == [.string("observed")])

            // A monitor must never send; the library refuses rather than getting it disconnected.
            await #expect(throws: DBusError.self) { _ = try await monitor.nameOwner(of: "org.relay.X") }
            #expect(monitor.isConnected)
        }
    }

    @Test func aMonitorDoesNotAnswerPeerPingsItObserves() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let monitor = try await bus.connect()
            let messages = try await monitor.becomeMonitor(matching: [DBusMatchRule(kind: nil, interface: "org.freedesktop.DBus.Peer")])
            var iterator = messages.makeAsyncIterator()
            // libdbus answers Peer.Ping itself on the server; the monitor must merely watch.
            _ = try await client.call(
                destination: server.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer", method: "Ping")
            #expect(await next(&iterator) { $0.member == "Ping" } != nil)
            _ = try await client.call(
                destination: server.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer", method: "Ping")
            #expect(await next(&iterator) { $0.member == "Ping" } != nil)
            #expect(monitor.isConnected)
        }
    }

    @Test func peerDisconnectingDuringACallFailsTheCall() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let service = TestService()
            try service.export(on: server)
            var parked = service.parkedCalls.makeAsyncIterator()
            let pending = service.park("abandoned", from: client, to: server)
            _ = try #require(await parked.next())
            await server.close()
            do {
                _ = try await pending.value
                Issue.record("The call succeeded")
            } catch let error as DBusError {
                #expect(error.name == .noReply)
            }
            service.release.open()
            #expect(client.isConnected)
        }
    }

    @Test func losingTheBusFailsCallsEndsStreamsAndReportsTheLoss() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let service = TestService()
            try service.export(on: server)
            let signals = try await client.signals(matching: .signal(member: "Ping"))
            var parked = service.parkedCalls.makeAsyncIterator()
            let pending = Task {
                try await client.call(
                    destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                    method: "Park", arguments: [.string("orphaned")], timeout: nil)
            }
            _ = try #require(await parked.next())

            await bus.kill()

            await #expect { _ = try await pending.value } throws: { ($0 as? DBusError)?.name == .disconnected }
            #expect(try await client.waitUntilDisconnected() == .lost)
            #expect(try await server.waitUntilDisconnected() == .lost)
            #expect(!client.isConnected)
            for await _ in signals { Issue.record("A signal arrived after the bus died") }
            await #expect { _ = try await client.nameOwner(of: "org.relay.X") } throws: {
                ($0 as? DBusError)?.name == .disconnected
            }
            service.release.open()
        }
    }
}
