import RelayBluetooth
import RelayDBus
import RelayTestSupport
import Testing

/// BlueZ's `Agent1.Cancel` reaches a decider that is still waiting for a person: its task is
/// cancelled, so the wearable can take the passkey off its screen.
@Suite(.timeLimit(.minutes(1))) struct PairingAgentCancelTests {
    @Test func cancelEndsTheDeciderThatIsStillWaiting() async throws {
        try await withPrivateBus { bus in
            try await withBlueZMock(on: bus) { mock in
                try await mock.addAdapter()
                let wearablePath = try await mock.mock(
                    "AddRelayWearable", [.string("hci0"), .string(BlueZMockTests.wearableAddress), .string("Watch")]
                ).decode(0, as: String.self)
                _ = try await mock.mock("AddPhone", [.string("hci0"), .string(BlueZMockTests.phoneAddress)])
                let events = EventLog<String>()

                // The wearable's person never answers; only BlueZ's Cancel ends the wait.
                let wearableConnection = try await bus.connect()
                let wearable = PairingAgent(path: "/org/relay/wearable/agent") { request in
                    events.append(["wearable asked \(request.passkeyText ?? "-")"])
                    do {
                        try await Task.sleep(for: .seconds(600))
                        events.append(["wearable answered"])
                    } catch {
                        events.append(["wearable cancelled"])
                    }
                    return true
                }
                try wearable.export(on: wearableConnection)
                try await BlueZClient(connection: wearableConnection).registerAgent(path: wearable.path)

                // The phone's person says no, once the wearable shows the passkey too.
                let phoneConnection = try await bus.connect()
                let phone = PairingAgent(path: "/org/relay/phone/agent") { _ in
                    _ = await events.wait { $0.contains { $0.hasPrefix("wearable asked") } }
                    return false
                }
                try phone.export(on: phoneConnection)
                let phoneClient = BlueZClient(connection: phoneConnection)
                try await phoneClient.registerAgent(path: phone.path)

                await #expect(throws: DBusError.self) { try await phoneClient.pair(device: wearablePath) }
                #expect(await events.wait { $0.contains("wearable cancelled") }, "\(events.elements)")
                #expect(events.elements.first == "wearable asked 123456")
                #expect(!events.elements.contains("wearable answered"))
                await wearableConnection.close()
                await phoneConnection.close()
            }
        }
    }
}
