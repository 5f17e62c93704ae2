import Glibc
import RelayBluetooth
import RelayDBus
import RelayTestSupport
import Synchronization
import Testing

/// RelayBluetooth against the bluetoothd mock on a private system bus: profile registration
/// (and again after bluetoothd restarts), the Agent1 confirmation, the socketpair hand-off over
/// real passed descriptors, link loss, discovery and the "no Bluetooth" diagnoses.
@Suite(.timeLimit(.minutes(1))) struct BlueZMockTests {
    static let wearableAddress = "AA:BB:CC:DD:EE:01"
    static let phoneAddress = "11:22:33:44:55:66"

    @Test func profileIsRegisteredAgainWhenBluetoothdRestarts() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let registrar = ProfileRegistrar(
                client: BlueZClient(connection: connection),
                endpoint: ProfileEndpoint(path: "/org/relay/test/profile", connected: { _ in }),
                options: ProfileOptions(role: .server, channel: RelayService.defaultChannel), log: { _ in })
            let states = EventLog<ProfileRegistration.State>()
            let watching = Task { for await state in registrar.states { states.append([state]) } }
            let running = Task { try await registrar.run() }
            defer {
                running.cancel()
                watching.cancel()
            }
            // Started before bluetoothd: it waits, then registers with the first owner …
            for round in 1...2 {
                try await withBlueZMock(on: bus) { mock in
                    let owner = try #require(try await connection.nameOwner(of: BlueZ.service))
                    #expect(await states.wait { $0.last == .registered(owner: owner) }, "round \(round)")
                    #expect(try await mock.profiles() == [[connection.uniqueName, "/org/relay/test/profile", RelayService.uuid, "server"]])
                }
                // … notices it leaving, and registers again with the next one.
                #expect(await states.wait { $0.last == .waitingForBluetoothd })
            }
        }
    }

    @Test func confirmedPairingThenProfileHandOffOverARealDescriptor() async throws {
        try await withPairedDevices(wearableAnswer: true) { mock, wearablePath, phonePath, phone, asked in
            #expect(asked.elements.sorted() == ["phone \(wearablePath) 123456", "wearable \(phonePath) 123456"])
            let objects = try await phone.client.objects()
            let device = try #require(objects.devices.first { $0.path == wearablePath })
            #expect(device.paired && device.offersRelay)
            try await phone.client.setTrusted(device: wearablePath, true)
            #expect(try await phone.client.objects().devices.first { $0.path == wearablePath }?.trusted == true)

            try await phone.client.connectProfile(device: wearablePath, uuid: RelayService.uuid)
            #expect(await phone.received.wait { $0.count == 1 })
            #expect(await phone.wearableSide.received.wait { $0.count == 1 })
            let phoneEnd = try #require(phone.received.elements.first)
            let wearableEnd = try #require(phone.wearableSide.received.elements.first)
            #expect(phoneEnd.device == wearablePath)
            #expect(wearableEnd.device == phonePath)
            #expect(try await phone.client.objects().devices.first { $0.path == wearablePath }?.connected == true)

            // Bytes written on one side's descriptor arrive on the other's.
            #expect(write(wearableEnd.descriptor.fileDescriptor, "ping", 4) == 4)
            #expect(readString(phoneEnd.descriptor.fileDescriptor) == "ping")
            #expect(write(phoneEnd.descriptor.fileDescriptor, "pong", 4) == 4)
            #expect(readString(wearableEnd.descriptor.fileDescriptor) == "pong")

            // Link loss: bluetoothd's copies are shut down; both agents' descriptors see the end.
            #expect(try await mock.mock("DropLinks").decode(0, as: Int32.self) == 1)
            #expect(readString(phoneEnd.descriptor.fileDescriptor) == "")
            #expect(readString(wearableEnd.descriptor.fileDescriptor) == "")
            #expect(try await phone.client.objects().devices.first { $0.path == wearablePath }?.connected == false)
        }
    }

    @Test func aRejectedPasskeyFailsThePairing() async throws {
        try await withPairedDevices(wearableAnswer: false) { _, wearablePath, _, phone, _ in
            let device = try await phone.client.objects().devices.first { $0.path == wearablePath }
            #expect(device?.paired == false)
            // Without a bond the profile cannot connect.
            await #expect(throws: DBusError.self) {
                try await phone.client.connectProfile(device: wearablePath, uuid: RelayService.uuid)
            }
        }
    }

    @Test func aBondRemovedBehindRelaysBackIsNoticed() async throws {
        try await withPairedDevices(wearableAnswer: true) { _, wearablePath, _, phone, _ in
            #expect(try await phone.client.objects().devices.first { $0.path == wearablePath }?.paired == true)
            let events = EventLog<String>()
            let watching = Task {
                try await phone.client.waitForBondLoss(device: wearablePath)
                events.append(["lost"])
            }
            // `bluetoothctl remove`: the device object goes, and the bond with it.
            events.append(["removed"])
            _ = try await phone.client.connection.call(
                destination: BlueZ.service, path: "/org/bluez/hci0", interface: BlueZ.adapter, method: "RemoveDevice",
                arguments: [.objectPath(try DBusObjectPath(wearablePath))])
            try await watching.value
            #expect(events.elements == ["removed", "lost"])
            // A device without a bond has nothing to lose: the wait ends at once.
            try await phone.client.waitForBondLoss(device: wearablePath)
        }
    }

    @Test func discoveryFindsTheWearableByItsServiceOrGivesUp() async throws {
        try await withPrivateBus { bus in
            try await withBlueZMock(on: bus) { mock in
                try await mock.addAdapter()
                let client = BlueZClient(connection: try await bus.connect())
                let (adapter, _) = try await BluetoothProblem.adapter(named: nil, client: client)
                let discovery = DeviceDiscovery(client: client, adapter: adapter)
                await #expect(throws: DeviceDiscovery.NotFound.self) {
                    _ = try await discovery.find(.relayService, timeout: .milliseconds(300))
                }
                try await mock.mock("AddHiddenWearable", [.string("hci0"), .string(Self.wearableAddress), .string("Watch")])
                var announced = try await mock.announcements().makeAsyncIterator()
                let found = try await discovery.find(.relayService, timeout: .seconds(20))
                #expect(found.address == Self.wearableAddress && found.name == "Watch" && found.rssi == -79)
                let start = await next(&announced) { announcement($0).0 == "StartDiscovery" }
                #expect(start.map { announcement($0).1 } == ["/org/bluez/hci0", RelayService.uuid])
                let address = try #require(BluetoothAddress(Self.wearableAddress.lowercased()))
                let byAddress = try await discovery.find(.address(address), timeout: .seconds(20))
                #expect(byAddress.path == found.path)
            }
        }
    }

    @Test func saysWhyBluetoothIsMissing() async throws {
        try await withPrivateBus { bus in
            let client = BlueZClient(connection: try await bus.connect())
            await #expect(throws: BluetoothProblem.noBluetoothd) {
                _ = try await BluetoothProblem.adapter(named: nil, client: client, kernelSupportsBluetooth: { true })
            }
            await #expect(throws: BluetoothProblem.noKernelSupport) {
                _ = try await BluetoothProblem.adapter(named: nil, client: client, kernelSupportsBluetooth: { false })
            }
            try await withBlueZMock(on: bus) { mock in
                await #expect(throws: BluetoothProblem.noAdapter(nil)) {
                    _ = try await BluetoothProblem.adapter(named: nil, client: client)
                }
                try await mock.addAdapter()
                await #expect(throws: BluetoothProblem.noAdapter("hci1")) {
                    _ = try await BluetoothProblem.adapter(named: "hci1", client: client)
                }
                let (adapter, _) = try await BluetoothProblem.adapter(named: "hci0", client: client)
                #expect(adapter.powered && adapter.pairable)
            }
        }
        #expect(BluetoothProblem.noBluetoothd.description.contains("--transport loopback"))
        #expect(BluetoothProblem.noKernelSupport.description.contains("AF_BLUETOOTH"))
    }

    @Test func waitsForBluetoothdAndItsAdapterSayingEachProblemOnce() async throws {
        try await withPrivateBus { bus in
            let client = BlueZClient(connection: try await bus.connect())
            let told = EventLog<BluetoothProblem>()
            let search = Task {
                try await BluetoothProblem.waitForAdapter(
                    named: nil, client: client, every: .milliseconds(50), kernelSupportsBluetooth: { true },
                    waiting: { told.append([$0]) })
            }
            #expect(await told.wait { $0 == [.noBluetoothd] })
            try await withBlueZMock(on: bus) { mock in
                #expect(await told.wait { $0 == [.noBluetoothd, .noAdapter(nil)] })
                try await mock.addAdapter()
                let (adapter, _) = try await search.value
                #expect(adapter.name == "hci0")
            }
            #expect(told.elements == [.noBluetoothd, .noAdapter(nil)])
            // Without the kernel's Bluetooth there is nothing to wait for.
            await #expect(throws: BluetoothProblem.noKernelSupport) {
                _ = try await BluetoothProblem.waitForAdapter(
                    named: nil, client: client, kernelSupportsBluetooth: { false }, waiting: { _ in })
            }
        }
    }
}

/// One side's bus connection, its registered profile and what the profile received.
struct ProfileSide: Sendable {
    let client: BlueZClient
    let received: EventLog<ProfileConnection>
    let registrar: ProfileRegistrar
}

/// The phone's side, with the wearable's beside it.
struct TwoSides: Sendable {
    let client: BlueZClient
    let received: EventLog<ProfileConnection>
    let wearableSide: ProfileSide
}

/// Both sides on one mock: the wearable's server profile and the phone's client profile
/// registered, an agent on each answering (the phone yes, the wearable `wearableAnswer`), and
/// `Device1.Pair` called by the phone. `body` gets the mock, the wearable's and the phone's
/// device paths, the sides, and the agents' requests as "SIDE DEVICE PASSKEY".
func withPairedDevices(
    wearableAnswer: Bool,
    _ body: (BlueZMock, String, String, TwoSides, EventLog<String>) async throws -> Void
) async throws {
    try await withPrivateBus { bus in
        try await withBlueZMock(on: bus) { mock in
            try await mock.addAdapter()
            let wearablePath = try await mock.mock(
                "AddRelayWearable", [.string("hci0"), .string(BlueZMockTests.wearableAddress), .string("Watch")]
            ).decode(0, as: String.self)
            let phonePath = try await mock.mock("AddPhone", [.string("hci0"), .string(BlueZMockTests.phoneAddress)])
                .decode(0, as: String.self)
            let asked = EventLog<String>()
            var announced = try await mock.announcements().makeAsyncIterator()
            var sides: [ProfileSide] = []
            var tasks: [Task<Void, any Error>] = []
            for (role, answer) in [(ProfileOptions.Role.server, wearableAnswer), (.client, true)] {
                let name = role == .server ? "wearable" : "phone"
                let connection = try await bus.connect()
                let client = BlueZClient(connection: connection)
                let received = EventLog<ProfileConnection>()
                let registrar = ProfileRegistrar(
                    client: client,
                    endpoint: ProfileEndpoint(path: "/org/relay/\(name)/profile", connected: { received.append([$0]) }),
                    options: ProfileOptions(role: role, channel: role == .server ? RelayService.defaultChannel : nil),
                    log: { _ in })
                tasks.append(Task { try await registrar.run() })
                let agent = PairingAgent(path: "/org/relay/\(name)/agent") { request in
                    asked.append(["\(name) \(request.device) \(request.passkeyText ?? "-")"])
                    return answer
                }
                try agent.export(on: connection)
                try await client.registerAgent(path: agent.path)
                sides.append(ProfileSide(client: client, received: received, registrar: registrar))
            }
            defer { for task in tasks { task.cancel() } }
            var registered = 0
            while registered < 2, let message = await next(&announced, where: { announcement($0).0 == "RegisterProfile" }) {
                _ = message
                registered += 1
            }
            let phone = TwoSides(client: sides[1].client, received: sides[1].received, wearableSide: sides[0])
            do {
                try await phone.client.pair(device: wearablePath)
                #expect(wearableAnswer, "pairing succeeded although the wearable said no")
            } catch let error as DBusError {
                #expect(!wearableAnswer, "pairing failed: \(error)")
                #expect(error.name.rawValue == BlueZ.ErrorName.authenticationRejected)
            }
            try await body(mock, wearablePath, phonePath, phone, asked)
        }
    }
}

/// Reads what is there (one read); "" at the end of the stream.
func readString(_ descriptor: Int32) -> String? {
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
}
