import Dispatch
import Foundation
import RelayBluetooth
import RelayDBus
import RelayTransport
import Synchronization
import WearableAgent

/// relay-wearable's Bluetooth side: Relay's server-role `Profile1` registered with BlueZ on
/// its RFCOMM channel (again whenever bluetoothd restarts), each `NewConnection` socket served
/// by `WearableLink.run`, and a `DisplayYesNo` agent for bonding.
final class WearableBluetooth: Sendable {
    static let profilePath = "/org/relay/wearable/profile"
    static let agentPath = "/org/relay/wearable/agent"

    private let client: BlueZClient
    private let channel: UInt16
    private let log: @Sendable (String) -> Void
    private let connections = Mutex<[String: [ProfileConnection]]>([:])
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private init(client: BlueZClient, channel: UInt16, log: @escaping @Sendable (String) -> Void) {
        self.client = client
        self.channel = channel
        self.log = log
    }

    /// Connects to the system bus and checks for bluetoothd and the adapter, before the agent
    /// opens anything else; throws what is missing and how to run without Bluetooth.
    static func check(adapter: String?, channel: UInt16, log: @escaping @Sendable (String) -> Void) throws -> WearableBluetooth {
        try blocking {
            let connection: DBusConnection
            do {
                connection = try await BluetoothProblem.connectSystemBus()
            } catch {
                throw WearableBluetoothError(description: "relay-wearable: \(error)")
            }
            let client = BlueZClient(connection: connection)
            do {
                let (found, _) = try await BluetoothProblem.adapter(named: adapter, client: client)
                if !found.powered { log("relay-wearable: bluetooth: \(BluetoothProblem.adapterOff(found.name))") }
            } catch {
                await connection.close()
                throw WearableBluetoothError(description: "relay-wearable: \(error)")
            }
            return WearableBluetooth(client: client, channel: channel, log: log)
        }
    }

    /// Registers the profile and the agent, and serves each connection BlueZ hands over with `link`.
    func serve(_ link: WearableLink) {
        let endpoint = ProfileEndpoint(
            path: Self.profilePath,
            connected: { [self] connection in try await accept(connection, link: link) },
            disconnectionRequested: { [self] device in disconnect(device, reason: "BlueZ asked to disconnect") },
            released: { [log] in log("relay-wearable: bluetooth: bluetoothd released Relay's profile") })
        let registrar = ProfileRegistrar(
            client: client, endpoint: endpoint,
            options: ProfileOptions(role: .server, channel: channel), log: { [log] in log("relay-wearable: " + $0) })
        let agent = PairingAgent(
            path: Self.agentPath,
            decide: { [log] request in
                // No passkey screen yet: the wearable bonds while it has no partner, and the
                // application's own code, shown and confirmed on the screen, authenticates the phone.
                let accepted = link.status.state == "unpaired"
                log("relay-wearable: bluetooth: bonding request from \(request.device), passkey \(request.passkeyText ?? "none"): "
                    + (accepted ? "accepted (not paired yet; the Relay code on the screen confirms the phone)" : "rejected (already paired; unpair first)"))
                return accepted
            },
            observe: { [log] in log("relay-wearable: " + $0) })
        let client = client
        let log = log
        let registering = Task {
            do { try await registrar.run() } catch { log("relay-wearable: bluetooth: the profile could not be exported: \(error)") }
        }
        let agentTask = Task {
            do {
                try agent.export(on: client.connection)
                try await Self.keepRegistered(agent, client: client, log: log)
            } catch {
                log("relay-wearable: bluetooth: the pairing agent could not be exported: \(error)")
            }
        }
        tasks.withLock { $0 += [registering, agentTask] }
    }

    /// Ends every link and leaves the bus.
    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        for connection in connections.withLock({ $0.values.flatMap { $0 } }) { connection.shutDown() }
        let client = client
        try? Self.blocking { await client.connection.close() }
    }

    private func accept(_ connection: ProfileConnection, link: WearableLink) async throws {
        let framed = try await Transport.adopt(descriptor: try connection.descriptor.duplicate(), peer: "rfcomm:\(connection.device)")
        connections.withLock { $0[connection.device, default: []].append(connection) }
        log("relay-wearable: bluetooth: connection from \(connection.device)")
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

    private func disconnect(_ device: String, reason: String) {
        let open = connections.withLock { $0[device] ?? [] }
        if !open.isEmpty { log("relay-wearable: bluetooth: \(reason): \(device)") }
        for connection in open { connection.shutDown() }
    }

    /// Registers the agent with each owner of `org.bluez` (bluetoothd forgets agents when it restarts).
    private static func keepRegistered(_ agent: PairingAgent, client: BlueZClient, log: @escaping @Sendable (String) -> Void) async throws {
        let owners = try await client.connection.signals(matching: .nameOwnerChanged(name: BlueZ.service))
        func register() async {
            do {
                try await client.registerAgent(path: agent.path)
            } catch {
                log("relay-wearable: bluetooth: the pairing agent could not be registered: \(error)")
            }
        }
        if try await client.isRunning() { await register() }
        for await change in owners {
            guard change.arguments.count == 3, case .string(let owner) = change.arguments[2], !owner.isEmpty else { continue }
            await register()
        }
    }

    /// Runs async work from the agent's synchronous start-up and waits for it.
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw WearableBluetoothError(description: "relay-wearable: Bluetooth start-up ended without an answer") }
        return try result.get()
    }
}

/// Why relay-wearable cannot use Bluetooth, as one sentence.
struct WearableBluetoothError: Error, CustomStringConvertible {
    let description: String
}
