import Foundation
import RelayCLI
import PhoneAgent
import RelayBluetooth
import RelayDBus
import RelayTransport
import Synchronization

/// relay-phone's Bluetooth transport: a client-role `Profile1` registered with BlueZ (again
/// whenever bluetoothd restarts), and connections opened with `Device1.ConnectProfile`, whose
/// socket BlueZ hands to that profile. A raw RFCOMM socket to `peer = "rfcomm:ADDRESS/CHANNEL"`
/// is the fallback when BlueZ cannot connect the profile. The wearable's Bluetooth link coming
/// up (`Device1.Connected`) cuts the reconnection backoff short.
final class PhoneBluetooth: WearableConnector {
    static let profilePath = "/org/relay/phone/profile"

    let transportName = "rfcomm"
    /// Right after `relayctl pair` bonds, the wearable's side may not take a connection yet
    /// (bluetoothd still settling the new bond and the link); pairing tries again for this long.
    let pairingConnectWindow = Duration.seconds(15)
    private let client: BlueZClient
    private let adapterName: String?
    private let address: BluetoothAddress?
    private let fallback: TransportEndpoint?
    private let registrar: ProfileRegistrar
    private let handoff: ProfileHandoff
    private let log: AgentLogSink
    private let state = Mutex(State())
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private struct State {
        var adapter: BlueZAdapter?
        var device: BlueZDevice?
        var current: ProfileConnection?
        var connecting = false
        /// Why raw RFCOMM connections were made, each logged once.
        var rawReasons: Set<String> = []
    }

    /// Connects to the system bus and checks that Bluetooth can work (bluetoothd, an adapter),
    /// waiting (saying so once) while bluetoothd or the adapter is not there yet; throws a
    /// ``BluetoothProblem`` saying what is missing when it cannot come.
    static func start(_ settings: PhoneSettings, log: AgentLogSink) async throws -> PhoneBluetooth {
        var fallback: TransportEndpoint?
        if case .rfcomm = settings.link.endpoint { fallback = settings.link.endpoint }
        let adapter = settings.bluetoothAdapter
        let wearableAddress = settings.wearableAddress
        let address: BluetoothAddress?
        if let wearableAddress {
            guard let parsed = BluetoothAddress(wearableAddress) else {
                throw PhoneError("bluetooth.wearable_address is \"\(wearableAddress)\", not a Bluetooth address like 01:23:45:67:89:AB")
            }
            address = parsed
        } else if case .rfcomm(let text, _)? = fallback {
            address = BluetoothAddress(text)
        } else {
            address = nil
        }
        let connection: DBusConnection
        do {
            connection = try await BluetoothProblem.connectSystemBus()
        } catch {
            throw PhoneError("relay-phone: \(error)")
        }
        let client = BlueZClient(connection: connection)
        do {
            _ = try await BluetoothProblem.waitForAdapter(named: adapter, client: client) { problem in
                log("relay-phone: bluetooth: \(problem); waiting for it")
            }
        } catch {
            await connection.close()
            throw PhoneError("relay-phone: \(error)")
        }
        let bluetooth = PhoneBluetooth(client: client, adapter: adapter, address: address, fallback: fallback, log: log)
        bluetooth.run()
        return bluetooth
    }

    private init(
        client: BlueZClient, adapter: String?, address: BluetoothAddress?, fallback: TransportEndpoint?,
        log: AgentLogSink
    ) {
        self.client = client
        adapterName = adapter
        self.address = address
        self.fallback = fallback
        self.log = log
        let handoff = ProfileHandoff()
        self.handoff = handoff
        registrar = ProfileRegistrar(
            client: client,
            endpoint: ProfileEndpoint(
                path: Self.profilePath, connected: { try handoff.deliver($0) },
                disconnectionRequested: { device in log("relay-phone: bluetooth: BlueZ asked to disconnect \(device)") }),
            options: ProfileOptions(role: .client), log: { log("relay-phone: " + $0) })
    }

    private func run() {
        let registrar = registrar
        let log = log
        let registering = Task {
            do { try await registrar.run() } catch { log.error("relay-phone: bluetooth: the profile could not be exported: \(error)") }
        }
        tasks.withLock { $0.append(registering) }
    }

    /// Reconnects `link` at once when the wearable's Bluetooth link comes up while no session
    /// runs, and keeps the device's state fresh for status.
    func follow(_ link: PhoneLink) {
        link.whenPartnerUnpaired { [self] in Task { await forgetWearable() } }
        let client = client
        let watching = Task { [self] in
            guard let changes = try? await client.connection.signals(
                matching: DBusMatchRule(kind: .signal, sender: BlueZ.service, pathNamespace: "/org/bluez"))
            else { return }
            await refresh()
            for await change in changes where change.member == "PropertiesChanged" || change.member == "InterfacesAdded" {
                let before = state.withLock { $0.device }
                await refresh()
                let (after, busy) = state.withLock { ($0.device, $0.connecting || $0.current?.isOpen == true) }
                if let after, after.connected, before?.connected != true, !busy, link.status.state == "disconnected" {
                    log("relay-phone: bluetooth: \(after.name) (\(after.address)) is connected; connecting the link now")
                    link.reconnect(reason: "the wearable's Bluetooth link came up")
                }
            }
        }
        tasks.withLock { $0.append(watching) }
    }

    /// Removes the bond with the wearable (it unpaired this phone): bluetoothd forgets its keys,
    /// and the next `relayctl pair` bonds afresh.
    func forgetWearable() async {
        guard let (adapter, device) = state.withLock({ state in state.adapter.flatMap { a in state.device.map { (a, $0) } } }) else { return }
        do {
            try await client.removeDevice(adapter: adapter.path, device: device.path)
            log("relay-phone: bluetooth: removed the bond with \(device.name) (\(device.address))")
        } catch {
            log.warning("relay-phone: bluetooth: could not remove the bond with \(device.name) (\(device.address)): \(Self.explain(error)); remove it with: bluetoothctl remove \(device.address)")
        }
    }

    /// Ends the current link and stops following bluetoothd.
    func stop() async {
        let current = state.withLock { $0.current }
        current?.shutDown()
        for task in tasks.withLock({ $0 }) { task.cancel() }
        await client.connection.close()
    }

    // MARK: WearableConnector

    func connect() async throws -> FramedConnection {
        state.withLock { $0.connecting = true }
        defer { state.withLock { $0.connecting = false } }
        // The previous link ends first: bluetoothd keeps a copy of its socket, so only a
        // shutdown lets the wearable see it end.
        state.withLock { $0.current }?.shutDown()
        let (adapter, device) = try await wearable()
        guard adapter.powered else { throw BluetoothProblem.adapterOff(adapter.name) }
        // Without BlueZ's profile the phone connects a raw RFCOMM socket itself: to `peer` when
        // it names one, else to the bonded wearable on Relay's channel.
        let raw = fallback ?? .rfcomm(address: device.address, channel: UInt8(RelayService.defaultChannel))
        guard registrar.isRegistered else {
            return try await connectRaw(raw, from: adapter, because: "Relay's Bluetooth profile is not registered with bluetoothd")
        }
        handoff.expect(device.path)
        do {
            try await client.connectProfile(device: device.path, uuid: RelayService.uuid)
        } catch {
            handoff.forget(device.path)
            log.warning("relay-phone: bluetooth: BlueZ could not connect the profile (\(Self.explain(error))); trying \(raw)")
            do {
                return try await Transport.connect(to: raw, fromAdapter: adapter.address)
            } catch let rawError {
                throw PhoneError(
                    "Bluetooth could not connect to \(device.name) (\(device.address)): \(Self.explain(error)); "
                        + "a raw RFCOMM connection failed too: \(rawError)")
            }
        }
        guard let connection = await handoff.take(device.path, timeout: .seconds(10)) else {
            throw PhoneError("BlueZ connected \(device.name) (\(device.address)) but handed no socket to Relay's profile")
        }
        state.withLock { $0.current = connection }
        let descriptor = try connection.descriptor.duplicate()
        return try await Transport.adopt(descriptor: descriptor, peer: "rfcomm:\(device.address) (\(device.name))")
    }

    /// Connects `endpoint` with a raw RFCOMM socket from `adapter`, saying once (per reason) why.
    private func connectRaw(_ endpoint: TransportEndpoint, from adapter: BlueZAdapter, because reason: String) async throws -> FramedConnection {
        let first = state.withLock { state in state.rawReasons.insert(reason).inserted }
        if first { log("relay-phone: bluetooth: \(reason); connecting \(endpoint) from \(adapter.name) with a raw RFCOMM socket instead") }
        return try await Transport.connect(to: endpoint, fromAdapter: adapter.address)
    }

    /// Where the link goes, for the ready line and `peerEndpoint` in status: the configured
    /// wearable, else the one bonded device offering Relay's service, and the raw RFCOMM
    /// fallback when `peer` names one.
    var target: String {
        var text = address.map { "Bluetooth device \($0)" } ?? "the bonded Bluetooth wearable offering Relay's service (\(RelayService.uuid))"
        if let fallback { text += ", else \(fallback)" }
        return text
    }

    var statusValues: [String: ConnectorStatusValue] {
        let (snapshot, link) = state.withLock { state -> ([String: ConnectorStatusValue], LinkToMeasure?) in
            var values: [String: ConnectorStatusValue] = [:]
            if let adapter = state.adapter {
                values["adapter"] = .string(adapter.name)
                values["adapterAddress"] = .string(adapter.address)
                values["adapterPowered"] = .int(adapter.powered ? 1 : 0)
            }
            var link: LinkToMeasure?
            if let device = state.device {
                values["deviceAddress"] = .string(device.address)
                values["deviceName"] = .string(device.name)
                values["bonded"] = .int(device.paired ? 1 : 0)
                values["trusted"] = .int(device.trusted ? 1 : 0)
                values["bluetoothConnected"] = .int(device.connected ? 1 : 0)
                if let adapter = state.adapter, let address = BluetoothAddress(device.address) {
                    link = LinkToMeasure(adapter: adapter.name, device: address, connected: device.connected, bluezRSSI: device.rssi)
                } else if let rssi = device.rssi {
                    values["rssi"] = .int(rssi)
                    values["linkQualitySource"] = .string(LinkQualityReport.Source.bluez.rawValue)
                }
            } else if let address {
                values["deviceAddress"] = .string(address.description)
            }
            values["profileRegistered"] = .int(registrar.isRegistered ? 1 : 0)
            return (values, link)
        }
        guard let link else { return snapshot }
        // Outside the lock: the controller may take up to a second to answer Read RSSI.
        let report = LinkQualityReport.read(
            adapter: link.adapter, device: link.device, connected: link.connected, bluezRSSI: link.bluezRSSI)
        var values = snapshot
        if let rssi = report.rssi { values["rssi"] = .int(rssi) }
        values["linkQualitySource"] = .string(report.source.rawValue)
        if let why = report.hciUnavailable { values["hciRSSIUnavailable"] = .string(why) }
        return values
    }

    /// The wearable's link as status last saw it, measured after the state's lock is released.
    private struct LinkToMeasure {
        var adapter: String
        var device: BluetoothAddress
        var connected: Bool
        var bluezRSSI: Int?
    }

    // MARK: Finding the wearable

    /// The adapter and the wearable: the configured address, else the one bonded device that
    /// offers Relay's service.
    private func wearable() async throws -> (BlueZAdapter, BlueZDevice) {
        let (adapter, objects) = try await BluetoothProblem.adapter(named: adapterName, client: client)
        state.withLock { $0.adapter = adapter }
        if let address {
            guard let device = objects.device(address, on: adapter) else {
                throw PhoneError("bluetoothd does not know the wearable \(address); bond with it first: relayctl pair")
            }
            state.withLock { $0.device = device }
            return (adapter, device)
        }
        let bonded = objects.bondedRelayDevices(on: adapter)
        guard let device = bonded.first else {
            throw PhoneError("no bonded Bluetooth device offers Relay's service; pair the wearable first: relayctl pair")
        }
        guard bonded.count == 1 else {
            throw PhoneError(
                "several bonded devices offer Relay's service (\(bonded.map(\.address).joined(separator: ", "))); "
                    + "choose one with bluetooth.wearable_address or --wearable-address")
        }
        state.withLock { $0.device = device }
        return (adapter, device)
    }

    private func refresh() async {
        guard let objects = try? await client.objects(), let adapter = objects.adapter(named: adapterName) else { return }
        let known = state.withLock { $0.device?.path }
        let bonded = objects.bondedRelayDevices(on: adapter)
        var device: BlueZDevice? = bonded.count == 1 ? bonded[0] : nil
        if let known, let same = objects.devices.first(where: { $0.path == known }) { device = same }
        if let address, let configured = objects.device(address, on: adapter) { device = configured }
        state.withLock { state in
            state.adapter = adapter
            if let device { state.device = device }
        }
    }

    private static func explain(_ error: any Error) -> String {
        guard let error = error as? DBusError else { return "\(error)" }
        switch error.name.rawValue {
        case BlueZ.ErrorName.notAvailable: return "the wearable does not offer Relay's service now (is relay-wearable running with --transport rfcomm?)"
        case "org.freedesktop.DBus.Error.NoReply": return "no answer from bluetoothd in time"
        default: return error.message.isEmpty ? error.name.rawValue : "\(error.message) (\(error.name.rawValue))"
        }
    }
}
