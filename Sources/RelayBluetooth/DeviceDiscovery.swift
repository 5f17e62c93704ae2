import RelayDBus

/// Finds a device: one already known to bluetoothd, else by discovery filtered on Relay's
/// service UUID, within a time limit.
public struct DeviceDiscovery: Sendable {
    /// What was asked for, for the "not found" message.
    public enum Target: Sendable, Hashable, CustomStringConvertible {
        /// The device with this address.
        case address(BluetoothAddress)
        /// Any device offering Relay's service.
        case relayService

        /// For messages.
        public var description: String {
            switch self {
            case .address(let address): "the device \(address)"
            case .relayService: "a device offering Relay's service (\(RelayService.uuid))"
            }
        }
    }

    /// Nothing matched in time.
    public struct NotFound: Error, Sendable, CustomStringConvertible {
        /// What was looked for.
        public var target: Target
        /// For how long.
        public var seconds: Int

        /// What happened and what to do.
        public var description: String {
            "\(target) was not found within \(seconds) seconds; check that the wearable is on, near, and runs "
                + "relay-wearable with --transport rfcomm, then try again (or give --address)"
        }
    }

    private let client: BlueZClient
    private let adapter: BlueZAdapter

    /// Discovery on `adapter`.
    public init(client: BlueZClient, adapter: BlueZAdapter) {
        self.client = client
        self.adapter = adapter
    }

    /// Returns the first device matching `target`; discovery runs only if none is known yet, and
    /// is stopped again before this returns.
    public func find(_ target: Target, timeout: Duration) async throws -> BlueZDevice {
        // Subscribed before the first look, so a device added in between is not missed.
        let changes = try await client.connection.signals(
            matching: DBusMatchRule(kind: .signal, sender: BlueZ.service, pathNamespace: "/"))
        if let device = try await match(target) { return device }
        try? await client.setDiscoveryFilter(adapter: adapter.path, uuids: target == .relayService ? [RelayService.uuid] : [])
        try await client.startDiscovery(adapter: adapter.path)
        defer {
            let client = client
            let path = adapter.path
            Task { try? await client.stopDiscovery(adapter: path) }
        }
        return try await withThrowingTaskGroup(of: BlueZDevice?.self) { group in
            group.addTask {
                for await signal in changes
                where signal.member == "InterfacesAdded" || signal.member == "PropertiesChanged" {
                    if let device = try await match(target) { return device }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let device = first else { throw NotFound(target: target, seconds: Int(timeout.components.seconds)) }
            return device
        }
    }

    private func match(_ target: Target) async throws -> BlueZDevice? {
        let objects = try await client.objects()
        switch target {
        case .address(let address):
            return objects.device(address, on: adapter)
        case .relayService:
            return objects.devices.filter { $0.adapterPath == adapter.path && $0.offersRelay }
                .max { ($0.rssi ?? Int.min) < ($1.rssi ?? Int.min) }
        }
    }
}
