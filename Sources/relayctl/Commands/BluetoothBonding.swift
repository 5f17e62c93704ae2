import Foundation
import RelayBluetooth
import RelayDBus

/// The Bluetooth half of `relayctl pair` (Docs/BLUETOOTH.md): the adapter checked, the wearable
/// found (discovery filtered on Relay's service UUID, or by address), bonded through an agent
/// that shows the passkey and asks, and trusted. Each step prints a line; each failure is one
/// sentence saying what happened and what to do.
struct BluetoothBonding {
    static let agentPath = "/org/relay/relayctl/agent"

    var adapterName: String?
    var address: BluetoothAddress?
    var timeout: Int
    var assumeYes: Bool

    /// Bonds with the wearable, or finds the bond already there; returns the device.
    func run() async throws -> BlueZDevice {
        let connection = try await BluetoothProblem.connectSystemBus()
        defer { Task { await connection.close() } }
        let client = BlueZClient(connection: connection)
        let (adapter, _) = try await BluetoothProblem.adapter(named: adapterName, client: client)
        guard adapter.powered else { throw BluetoothProblem.adapterOff(adapter.name) }
        if !adapter.pairable {
            // bluetoothd leaves an adapter without an agent unpairable; pairing is what was asked for.
            do {
                try await client.setPairable(adapter: adapter.path, true)
            } catch {
                throw BluetoothProblem.adapterNotPairable(adapter.name)
            }
        }
        Self.say("Bluetooth: adapter \(adapter.name) (\(adapter.address)) is on and accepts pairing.")

        let target: DeviceDiscovery.Target = address.map { .address($0) } ?? .relayService
        Self.say("Looking for \(target == .relayService ? "a Relay wearable" : target.description) (up to \(timeout) s)…")
        let device = try await DeviceDiscovery(client: client, adapter: adapter).find(target, timeout: .seconds(timeout))
        Self.say("Found \(device.name) (\(device.address))" + (device.rssi.map { ", signal \($0) dBm." } ?? "."))

        if device.paired {
            Self.say("Already bonded with \(device.name).")
        } else {
            try await bond(device, client: client)
        }
        if !device.trusted {
            try await client.setTrusted(device: device.path, true)
        }
        Self.say("Bonded with \(device.name) (\(device.address)) and trusted; now the Relay code.")
        return device
    }

    private func bond(_ device: BlueZDevice, client: BlueZClient) async throws {
        let assumeYes = assumeYes
        let agent = PairingAgent(
            path: Self.agentPath,
            decide: { request in
                let passkey = request.passkeyText.map { "\($0.prefix(3)) \($0.dropFirst(3))" } ?? "(none)"
                Self.say("Bluetooth passkey: \(passkey). Check that the wearable shows the same passkey, and press Select on it.")
                if assumeYes {
                    Self.say("Does the wearable show \(passkey)? yes (--yes)")
                    return true
                }
                return await Self.ask("Does the wearable show \(passkey)? [y/N] ")
            },
            observe: { _ in })
        try agent.export(on: client.connection)
        defer { client.connection.unexport(path: Self.agentPath) }
        // Not the default agent: bluetoothd asks the agent of whoever called Pair for this
        // bond, and the system's default agent (the desktop's, or relay-wearable's on a
        // wearable) stays in charge of every other request.
        try await client.registerAgent(path: Self.agentPath, makeDefault: false)
        Self.say("Pairing with \(device.name) over Bluetooth…")
        do {
            try await client.pair(device: device.path)
        } catch let error as DBusError {
            try? await client.unregisterAgent(path: Self.agentPath)
            switch error.name.rawValue {
            case BlueZ.ErrorName.authenticationRejected, BlueZ.ErrorName.authenticationCanceled, BlueZ.ErrorName.rejected,
                BlueZ.ErrorName.canceled:
                throw BondingError(
                    "Bluetooth pairing was rejected: the passkey was not confirmed on both devices; "
                        + "if the passkeys differed, someone may be in between; try again: relayctl pair")
            case DBusError.Name.unknownMethod.rawValue, DBusError.Name.unknownObject.rawValue:
                // bluetoothd dropped the device's object: its adapter went, or bluetoothd restarted.
                throw BondingError(
                    "Bluetooth pairing with \(device.name) stopped: the device is gone from bluetoothd, so the adapter was removed "
                        + "(unplugged, or its controller reset) or bluetoothd restarted; check the adapter with bluetoothctl list, "
                        + "then try again: relayctl pair")
            default:
                throw BondingError("Bluetooth pairing with \(device.name) failed: \(error.message.isEmpty ? error.name.rawValue : error.message); try again: relayctl pair")
            }
        }
        try? await client.unregisterAgent(path: Self.agentPath)
    }

    /// Removes the bond with `address` (or the one bonded Relay device) for `relayctl unpair`;
    /// returns what was removed, `nil` if there was none.
    static func removeBond(adapterName: String?, address: BluetoothAddress?) async throws -> BlueZDevice? {
        let connection = try await BluetoothProblem.connectSystemBus()
        defer { Task { await connection.close() } }
        let client = BlueZClient(connection: connection)
        let (adapter, objects) = try await BluetoothProblem.adapter(named: adapterName, client: client)
        let device = address.flatMap { objects.device($0, on: adapter) }
            ?? (address == nil ? objects.bondedRelayDevices(on: adapter).first : nil)
        guard let device else { return nil }
        try await client.removeDevice(adapter: adapter.path, device: device.path)
        return device
    }

    /// One progress line, written at once (not held in a buffer while relayctl waits).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Asks on the terminal without holding one of the tasks' threads while waiting.
    private static func ask(_ question: String) async -> Bool {
        FileHandle.standardOutput.write(Data(question.utf8))
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let answer = readLine() ?? ""
                continuation.resume(returning: ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()))
            }
        }
    }
}

/// A failed bonding step, in one sentence.
struct BondingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
