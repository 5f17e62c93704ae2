import Foundation
import RelayBluetooth
import RelayCLI
import RelayControl
import RelayCore
import RelayDBus
import RelaySystem
import RelayTransport
import Synchronization
import WearableAgent

/// relay-wearable's Bluetooth side: Relay's server-role `Profile1` registered with BlueZ on
/// its RFCOMM channel (again whenever bluetoothd restarts), each `NewConnection` socket served
/// by `WearableLink.run`, and a `DisplayYesNo` agent for bonding whose passkey is shown on the
/// pairing screen (``BondingPrompt``).
final class WearableBluetooth: Sendable {
    static let profilePath = "/org/relay/wearable/profile"
    static let agentPath = "/org/relay/wearable/agent"
    /// How long start-up waits for bluetoothd to answer the profile's registration before the
    /// ready line (which then says it is not registered yet).
    static let registrationWait: Duration = .seconds(10)

    private let client: BlueZClient
    /// The adapter found at start-up.
    let adapter: BlueZAdapter
    /// Relay's RFCOMM channel, on which BlueZ listens for the profile.
    let channel: UInt16
    private let log: AgentLogSink
    private let connections = Mutex<[String: [ProfileConnection]]>([:])
    /// The device whose connection came last: the phone, once paired.
    private let lastDevice = Mutex<String?>(nil)
    private let registrar = Mutex<ProfileRegistrar?>(nil)
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// Whether the adapter should be visible (discoverable and pairable): while unpaired.
    private let wantsVisible = Mutex(false)
    /// The connected phone's bond, trust and RSSI as last read (``remeasure()``), for status.
    private let deviceLink = Mutex<DeviceLink?>(nil)
    private let measuring = Atomic<Bool>(false)
    /// The devices whose bond is watched (``watchBond(of:link:)``), one watch each.
    private let watchedBonds = Mutex<Set<String>>([])
    /// What is wrong with the phone's bond, said in status until the phone connects again.
    private let bondProblem = Mutex<String?>(nil)
    /// Wakes ``keepVisibility()``: the wanted visibility changed, or bluetoothd restarted.
    private let visibilityChanges: AsyncStream<Void>
    private let visibilityChanged: AsyncStream<Void>.Continuation

    private init(client: BlueZClient, adapter: BlueZAdapter, channel: UInt16, log: AgentLogSink) {
        self.client = client
        self.adapter = adapter
        self.channel = channel
        self.log = log
        (visibilityChanges, visibilityChanged) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Connects to the system bus and finds the adapter, before the agent opens anything else;
    /// waits (saying so once) while bluetoothd or the adapter is not there yet, and throws what
    /// is missing and how to run without Bluetooth when it cannot come (no system bus, no
    /// Bluetooth in the kernel). Cancelled while it waits (the agent told to stop), it leaves
    /// the bus and throws `CancellationError`.
    static func check(adapter: String?, channel: UInt16, log: AgentLogSink) async throws -> WearableBluetooth {
        let connection: DBusConnection
        do {
            connection = try await BluetoothProblem.connectSystemBus()
        } catch {
            // A stop while connecting is a stop, whatever the failure it caused says.
            if Task.isCancelled { throw CancellationError() }
            throw WearableBluetoothError(description: "relay-wearable: \(error)")
        }
        let client = BlueZClient(connection: connection)
        do {
            let (found, _) = try await BluetoothProblem.waitForAdapter(named: adapter, client: client) { problem in
                log("relay-wearable: bluetooth: \(problem); waiting for it")
            }
            if !found.powered { log("relay-wearable: bluetooth: \(BluetoothProblem.adapterOff(found.name))") }
            return WearableBluetooth(client: client, adapter: found, channel: channel, log: log)
        } catch {
            await connection.close()
            // A stop while it waits may surface as a failed call (`noSystemBus`): it is a stop.
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw WearableBluetoothError(description: "relay-wearable: \(error)")
        }
    }

    /// Registers the profile and the agent, serves each connection BlueZ hands over with `link`,
    /// and shows bonding passkeys through `bonding`. Returns once bluetoothd has answered the
    /// registration (or after ``registrationWait``), with what the ready line says.
    func serve(_ link: WearableLink, bonding: BondingPrompt) -> String {
        let endpoint = ProfileEndpoint(
            path: Self.profilePath,
            connected: { [self] connection in try await accept(connection, link: link) },
            disconnectionRequested: { [self] device in disconnect(device, reason: "BlueZ asked to disconnect") },
            released: { [log] in log("relay-wearable: bluetooth: bluetoothd released Relay's profile") })
        let registrar = ProfileRegistrar(
            client: client, endpoint: endpoint,
            options: ProfileOptions(role: .server, channel: channel), log: { [log] in log("relay-wearable: " + $0) })
        self.registrar.withLock { $0 = registrar }
        let agent = PairingAgent(
            path: Self.agentPath,
            decide: { [adapter, log] request in await Self.decide(request, adapter: adapter, link: link, bonding: bonding, log: log) },
            observe: { [log] in log("relay-wearable: " + $0) })
        let client = client
        let log = log
        let registering = Task {
            do { try await registrar.run() } catch { log.error("relay-wearable: bluetooth: the profile could not be exported: \(error)") }
        }
        // Ends once the agent's first registration was answered, so that the ready line comes
        // after the wearable can take part in bonding.
        let (agentAnswered, answered) = AsyncStream<Void>.makeStream()
        let agentTask = Task {
            defer { answered.finish() }
            do {
                try agent.export(on: client.connection)
                try await Self.keepRegistered(
                    agent, client: client, log: log, firstAnswered: { answered.finish() },
                    restarted: { [visibilityChanged] in visibilityChanged.yield() })
            } catch {
                log.error("relay-wearable: bluetooth: the pairing agent could not be exported: \(error)")
            }
        }
        let visibilityTask = Task { [self] in await keepVisibility() }
        let powerTask = Task { [self] in await followPower() }
        tasks.withLock { $0 += [registering, agentTask, visibilityTask, powerTask] }
        wantsVisible.withLock { $0 = Self.waitsForPairing(link) }
        visibilityChanged.yield()
        let settled = try? Blocking.run {
            let state = await Self.firstAnswer(of: registrar, within: Self.registrationWait)
            await within(Self.registrationWait) { for await _ in agentAnswered {} }
            return state
        }
        let listening = "Relay's Bluetooth profile on RFCOMM channel \(channel) of \(adapter.name) (\(adapter.address))"
        switch settled ?? nil {
        case .registered?: return listening
        case .refused(_, let reason)?: return listening + ", refused by bluetoothd (\(reason)); registered again when bluetoothd restarts"
        default: return listening + ", not registered yet (bluetoothd has not answered)"
        }
    }

    /// A bonding request: refused at once unless ``BondingRule`` lets the person decide, and
    /// then BlueZ's passkey on the pairing screen until Select or Back, or until bluetoothd
    /// cancels the request.
    private static func decide(
        _ request: PasskeyRequest, adapter: BlueZAdapter, link: WearableLink, bonding: BondingPrompt,
        log: AgentLogSink
    ) async -> Bool {
        let from = "bluetooth: bonding request from \(BluetoothAddress(devicePath: request.device)?.description ?? request.device)"
        switch BondingRule.decide(request, adapterPath: adapter.path, isPaired: link.status.state != "unpaired") {
        case .refuse(let reason):
            log.warning("relay-wearable: \(from): refused, \(reason)")
            return false
        case .ask(let passkey):
            log("relay-wearable: \(from), passkey \(passkey): shown on the screen; Select confirms, Back rejects")
            let accepted = await bonding.ask(passkey: passkey)
            let outcome = accepted ? "accepted" : Task.isCancelled ? "cancelled by bluetoothd" : "rejected"
            log("relay-wearable: bluetooth: passkey \(passkey): \(outcome)")
            return accepted
        }
    }

    /// The registration's first settled state (registered or refused), or `nil` after `limit`.
    private static func firstAnswer(of registrar: ProfileRegistrar, within limit: Duration) async -> ProfileRegistration.State? {
        await within(limit) {
            for await state in registrar.states {
                switch state {
                case .registered, .refused: return state
                case .waitingForBluetoothd, .registering, .released: continue
                }
            }
            return nil
        } ?? nil
    }

    /// The Bluetooth part of relay-wearable's status: the adapter, the profile and its channel,
    /// and the device whose link is open, if any.
    var statusValues: [String: ControlValue] {
        var values: [String: ControlValue] = [
            "adapter": .string(adapter.name), "adapterAddress": .string(adapter.address),
            "profileUUID": .string(RelayService.uuid), "rfcommChannel": .int(Int(channel)),
            "profileRegistered": .int(registrar.withLock { $0?.isRegistered ?? false } ? 1 : 0),
        ]
        let devices = connections.withLock { $0.keys.sorted() }
        values["bluetoothConnected"] = .int(devices.isEmpty ? 0 : 1)
        if let problem = bondProblem.withLock({ $0 }) { values["bluetoothProblem"] = .string(problem) }
        if let device = devices.last {
            values["deviceAddress"] = .string(BluetoothAddress(devicePath: device)?.description ?? device)
            if let link = deviceLink.withLock({ $0 }), link.device == device {
                values["bonded"] = .int(link.bonded ? 1 : 0)
                values["trusted"] = .int(link.trusted ? 1 : 0)
                if let rssi = link.quality.rssi { values["rssi"] = .int(rssi) }
                values["linkQualitySource"] = .string(link.quality.source.rawValue)
                if let why = link.quality.hciUnavailable { values["hciRSSIUnavailable"] = .string(why) }
            }
        }
        remeasure()
        return values
    }

    /// The connected device's Bluetooth state, as status shows it.
    private struct DeviceLink: Sendable {
        var device: String
        var bonded: Bool
        var trusted: Bool
        var quality: LinkQualityReport
    }

    /// Reads the connected device's bond and trust (bluetoothd) and its RSSI (HCI, which may
    /// take the controller up to a second) off the runtime's thread; status shows what the
    /// previous read found, so each status is at most one read behind.
    private func remeasure() {
        guard let device = connections.withLock({ $0.keys.sorted().last }), let address = BluetoothAddress(devicePath: device) else {
            deviceLink.withLock { $0 = nil }
            return
        }
        guard !measuring.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let (client, adapter) = (client, adapter)
        Task { [self] in
            let found = (try? await client.objects())?.device(address, on: adapter)
            // The HCI read blocks; it runs on a thread of its own, not the cooperative pool's.
            let quality = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(returning: LinkQualityReport.read(
                        adapter: adapter.name, device: address, connected: true, bluezRSSI: found?.rssi))
                }
            }
            deviceLink.withLock {
                $0 = DeviceLink(device: device, bonded: found?.paired ?? false, trusted: found?.trusted ?? false, quality: quality)
            }
            measuring.store(false, ordering: .releasing)
        }
    }

    /// Ends every link and leaves the bus.
    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        for connection in connections.withLock({ $0.values.flatMap { $0 } }) { connection.shutDown() }
        let client = client
        try? Blocking.run { await client.connection.close() }
    }

    private func accept(_ connection: ProfileConnection, link: WearableLink) async throws {
        let framed = try await Transport.adopt(descriptor: try connection.descriptor.duplicate(), peer: "rfcomm:\(connection.device)")
        connections.withLock { $0[connection.device, default: []].append(connection) }
        lastDevice.withLock { $0 = connection.device }
        bondProblem.withLock { $0 = nil }
        log("relay-wearable: bluetooth: connection from \(connection.device)")
        watchBond(of: connection.device, link: link)
        Task { [self] in
            await link.run(framed)
            // The session is over; end the socket for bluetoothd's copy too.
            connection.shutDown()
            connections.withLock { connections in
                connections[connection.device]?.removeAll { $0.descriptor == connection.descriptor }
                if connections[connection.device]?.isEmpty == true { connections.removeValue(forKey: connection.device) }
            }
        }
    }

    /// Says, once, when the bond with `device` (a phone that connected) is removed while Relay is
    /// still paired with it: BlueZ then refuses the phone's connections, and only pairing again
    /// mends that. Relay's own unpairing removes the bond too, with nothing to say.
    private func watchBond(of device: String, link: WearableLink) {
        guard watchedBonds.withLock({ $0.insert(device).inserted }) else { return }
        let task = Task { [self, client] in
            defer { _ = watchedBonds.withLock { $0.remove(device) } }
            guard (try? await client.waitForBondLoss(device: device)) != nil, !Self.waitsForPairing(link) else { return }
            let address = BluetoothAddress(devicePath: device)?.description ?? device
            let problem = "the Bluetooth bond with the phone \(address) was removed outside Relay (bluetoothctl remove, or a reset), "
                + "so the phone can no longer connect; to pair again, run relayctl unpair here and on the phone, then relayctl pair on the phone"
            bondProblem.withLock { $0 = problem }
            log("relay-wearable: bluetooth: \(problem)")
        }
        tasks.withLock { $0.append(task) }
    }

    private func disconnect(_ device: String, reason: String) {
        let open = connections.withLock { $0[device] ?? [] }
        if !open.isEmpty { log("relay-wearable: bluetooth: \(reason): \(device)") }
        for connection in open { connection.shutDown() }
    }

    /// Registers the agent with each owner of `org.bluez` (bluetoothd forgets agents when it restarts).
    /// `firstAnswered` is called once bluetoothd has answered the first registration (or is not there).
    private static func keepRegistered(
        _ agent: PairingAgent, client: BlueZClient, log: AgentLogSink, firstAnswered: @Sendable () -> Void,
        restarted: @Sendable () -> Void
    ) async throws {
        let owners = try await client.connection.signals(matching: .nameOwnerChanged(name: BlueZ.service))
        func register() async {
            do {
                try await client.registerAgent(path: agent.path)
            } catch {
                log.error("relay-wearable: bluetooth: the pairing agent could not be registered: \(error)")
            }
        }
        if try await client.isRunning() { await register() }
        firstAnswered()
        for await change in owners {
            guard change.arguments.count == 3, case .string(let owner) = change.arguments[2], !owner.isEmpty else { continue }
            await register()
            restarted()
        }
    }

    /// Makes the adapter discoverable and pairable while the wearable waits for a phone
    /// (`waiting`), and neither once it is paired: `relayctl pair` finds an unpaired wearable by
    /// Relay's service UUID, and a paired one is hidden from strangers while its phone still
    /// connects by address. There is no time limit: an unpaired wearable waits on its pairing
    /// screen until it is paired (Docs/BLUETOOTH.md).
    func waitForPairing(_ waiting: Bool) {
        let changed = wantsVisible.withLock { wanted in
            defer { wanted = waiting }
            return wanted != waiting
        }
        if changed { visibilityChanged.yield() }
        if changed, !waiting { trustPhone() }
    }

    /// Marks the phone just paired as trusted with bluetoothd, as relayctl does on the phone's
    /// side: its connections to Relay's service need no agent's authorisation from now on.
    private func trustPhone() {
        guard let device = lastDevice.withLock({ $0 }) else { return }
        let (client, log) = (client, log)
        Task {
            do {
                try await client.setTrusted(device: device, true)
            } catch {
                log.warning("relay-wearable: bluetooth: could not mark \(BluetoothAddress(devicePath: device)?.description ?? device) trusted: \(error)")
            }
        }
    }

    /// Removes the bond with the phone (the pairing was forgotten on either side): bluetoothd
    /// forgets its keys, and the next `relayctl pair` bonds afresh.
    func forgetPhone() {
        guard let device = lastDevice.withLock({ $0 }) else { return }
        let (client, adapter, log) = (client, adapter, log)
        Task {
            do {
                try await client.removeDevice(adapter: adapter.path, device: device)
                log("relay-wearable: bluetooth: removed the bond with \(BluetoothAddress(devicePath: device)?.description ?? device)")
            } catch {
                log.warning("relay-wearable: bluetooth: could not remove the bond with \(device): \(error)")
            }
        }
    }

    /// Whether `link` has no partner yet (so the adapter should be visible).
    static func waitsForPairing(_ link: WearableLink) -> Bool {
        ["unpaired", "pairing"].contains(link.status.state)
    }

    /// Says when the adapter's radio goes off and what to do, and applies the wanted visibility
    /// again when it comes back on: bluetoothd does not make a powered-off adapter discoverable.
    private func followPower() async {
        guard let changes = try? await client.powerChanges(adapter: adapter.path) else { return }
        for await powered in changes {
            if powered {
                log("relay-wearable: bluetooth: \(adapter.name) is on")
                visibilityChanged.yield()
            } else {
                log("relay-wearable: bluetooth: \(BluetoothProblem.adapterOff(adapter.name))")
            }
        }
    }

    /// Applies the wanted visibility, one change at a time, again after bluetoothd restarts.
    private func keepVisibility() async {
        var applied: Bool?
        for await _ in visibilityChanges {
            let wanted = wantsVisible.withLock { $0 }
            do {
                try await Self.retryingWhileBusy { [client, adapter] in try await client.setVisible(adapter: adapter.path, wanted) }
                if applied != wanted {
                    log("relay-wearable: bluetooth: \(adapter.name) is " + (wanted
                        ? "discoverable and pairable until a phone pairs"
                        : "no longer discoverable or pairable (paired)"))
                }
                applied = wanted
            } catch is CancellationError {
                return
            } catch {
                log.warning("relay-wearable: bluetooth: could not make \(adapter.name) \(wanted ? "discoverable" : "hidden"): \(error)")
            }
        }
    }

    /// Runs `change` again while bluetoothd answers that the adapter is busy with an earlier
    /// change (right after start-up, registering the profile changes its service records),
    /// for up to 10 s.
    private static func retryingWhileBusy(_ change: () async throws -> Void) async throws {
        for attempt in 1... {
            do {
                return try await change()
            } catch let error as DBusError where [BlueZ.ErrorName.busy, BlueZ.ErrorName.inProgress].contains(error.name.rawValue) && attempt < 20 {
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }
}

/// Why relay-wearable cannot use Bluetooth, as one sentence.
struct WearableBluetoothError: Error, CustomStringConvertible {
    let description: String
}
