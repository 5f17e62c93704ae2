public import RelayDBus

/// bluetoothd's methods, called over one system-bus connection. Each call names what it did
/// in its error, so callers can pass BlueZ's own error name and message on to people.
public struct BlueZClient: Sendable {
    /// The system-bus connection.
    public let connection: DBusConnection

    /// Uses `connection`, which must be on the bus bluetoothd is on.
    public init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Whether `org.bluez` has an owner now.
    public func isRunning() async throws -> Bool {
        try await connection.nameOwner(of: BlueZ.service) != nil
    }

    /// Every adapter and device.
    public func objects() async throws -> BlueZObjects {
        let reply = try await connection.call(
            destination: BlueZ.service, path: "/", interface: BlueZ.objectManager, method: "GetManagedObjects",
            timeout: .seconds(5))
        return BlueZObjects(
            managedObjects: try reply.decode(0, as: [DBusObjectPath: [String: [String: DBusValue]]].self))
    }

    // MARK: ProfileManager1

    /// Registers the profile object at `path` (exported on this connection) for `uuid`.
    public func registerProfile(path: String, uuid: String, options: ProfileOptions) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: BlueZ.managerPath, interface: BlueZ.profileManager,
            method: "RegisterProfile",
            arguments: [.objectPath(try DBusObjectPath(path)), .string(uuid), options.dbusValue], timeout: .seconds(10))
    }

    /// Unregisters the profile object at `path`.
    public func unregisterProfile(path: String) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: BlueZ.managerPath, interface: BlueZ.profileManager,
            method: "UnregisterProfile", arguments: [.objectPath(try DBusObjectPath(path))], timeout: .seconds(5))
    }

    // MARK: AgentManager1

    /// Registers the agent object at `path` with `capability` and makes it the default agent.
    public func registerAgent(path: String, capability: String = "DisplayYesNo", makeDefault: Bool = true) async throws {
        let objectPath = DBusValue.objectPath(try DBusObjectPath(path))
        _ = try await connection.call(
            destination: BlueZ.service, path: BlueZ.managerPath, interface: BlueZ.agentManager, method: "RegisterAgent",
            arguments: [objectPath, .string(capability)], timeout: .seconds(5))
        if makeDefault {
            _ = try await connection.call(
                destination: BlueZ.service, path: BlueZ.managerPath, interface: BlueZ.agentManager,
                method: "RequestDefaultAgent", arguments: [objectPath], timeout: .seconds(5))
        }
    }

    /// Unregisters the agent object at `path`.
    public func unregisterAgent(path: String) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: BlueZ.managerPath, interface: BlueZ.agentManager,
            method: "UnregisterAgent", arguments: [.objectPath(try DBusObjectPath(path))], timeout: .seconds(5))
    }

    // MARK: Adapter1

    /// Limits discovery to BR/EDR devices (Relay's transport), and to those whose inquiry
    /// response names one of `uuids` unless it is empty. A device looked for by address must
    /// not be filtered on UUIDs: a response without them would hide it.
    public func setDiscoveryFilter(adapter: String, uuids: [String]) async throws {
        var filter: [String: DBusValue] = ["Transport": .string("bredr")]
        if !uuids.isEmpty { filter["UUIDs"] = DBusValue.array(uuids) }
        _ = try await connection.call(
            destination: BlueZ.service, path: adapter, interface: BlueZ.adapter, method: "SetDiscoveryFilter",
            arguments: [filter.dbusValue], timeout: .seconds(5))
    }

    /// The adapter's radio turning on (`true`) and off (`false`), from bluetoothd's
    /// `PropertiesChanged`, until the caller stops iterating.
    public func powerChanges(adapter: String) async throws -> AsyncStream<Bool> {
        let changes = try await connection.signals(
            matching: .propertiesChanged(sender: BlueZ.service, path: adapter, interface: BlueZ.adapter))
        return AsyncStream { continuation in
            let forwarding = Task {
                for await change in changes {
                    guard let changed = try? change.arguments.decode(1, as: [String: DBusValue].self),
                        let powered = changed.bool("Powered")
                    else { continue }
                    continuation.yield(powered)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }

    /// Returns once the bond with `device` is gone as bluetoothd reports it: its `Paired` turned
    /// false, or the device was removed (`bluetoothctl remove`, or an unpairing); at once if it is
    /// not bonded now. Throws `CancellationError` when the caller's task is cancelled first.
    public func waitForBondLoss(device: String) async throws {
        let properties = try await connection.signals(
            matching: .propertiesChanged(sender: BlueZ.service, path: device, interface: BlueZ.device))
        let removals = try await connection.signals(
            matching: .signal(sender: BlueZ.service, interface: BlueZ.objectManager, member: "InterfacesRemoved", path: "/"))
        // Subscribed first, so that a loss between this read and the signals is not missed.
        guard try await objects().devices.contains(where: { $0.path == device && $0.paired }) else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await change in properties {
                    if (try? change.arguments.decode(1, as: [String: DBusValue].self))?.bool("Paired") == false { return }
                }
            }
            group.addTask {
                for await removal in removals {
                    guard let path = try? removal.arguments.decode(0, as: DBusObjectPath.self), path.rawValue == device,
                        let interfaces = try? removal.arguments.decode(1, as: [String].self), interfaces.contains(BlueZ.device)
                    else { continue }
                    return
                }
            }
            await group.next()
            group.cancelAll()
        }
        try Task.checkCancellation()
    }

    /// Makes the adapter discoverable and pairable (with no time limit: the caller undoes it),
    /// or neither; connectable is left alone, so a bonded partner can still connect.
    public func setVisible(adapter: String, _ visible: Bool) async throws {
        if visible { try await setAdapter(adapter, "DiscoverableTimeout", .uint32(0)) }
        try await setPairable(adapter: adapter, visible)
        try await setAdapter(adapter, "Discoverable", .boolean(visible))
    }

    /// Lets the adapter bond (store keys) with devices, or stops it.
    public func setPairable(adapter: String, _ pairable: Bool) async throws {
        try await setAdapter(adapter, "Pairable", .boolean(pairable))
    }

    private func setAdapter(_ adapter: String, _ property: String, _ value: DBusValue) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: adapter, interface: BlueZ.properties, method: "Set",
            arguments: [.string(BlueZ.adapter), .string(property), .variant(value)], timeout: .seconds(5))
    }

    /// Starts discovery.
    public func startDiscovery(adapter: String) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: adapter, interface: BlueZ.adapter, method: "StartDiscovery",
            timeout: .seconds(5))
    }

    /// Stops discovery.
    public func stopDiscovery(adapter: String) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: adapter, interface: BlueZ.adapter, method: "StopDiscovery",
            timeout: .seconds(5))
    }

    /// Removes a device and its bond.
    public func removeDevice(adapter: String, device: String) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: adapter, interface: BlueZ.adapter, method: "RemoveDevice",
            arguments: [.objectPath(try DBusObjectPath(device))], timeout: .seconds(10))
    }

    // MARK: Device1

    /// Bonds with the device; BlueZ asks the default agent to confirm the passkey.
    public func pair(device: String, timeout: Duration = .seconds(90)) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: device, interface: BlueZ.device, method: "Pair", timeout: timeout)
    }

    /// Marks the device trusted (or not): a trusted device connects without asking the agent.
    public func setTrusted(device: String, _ trusted: Bool) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: device, interface: BlueZ.properties, method: "Set",
            arguments: [.string(BlueZ.device), .string("Trusted"), .variant(.boolean(trusted))], timeout: .seconds(5))
    }

    /// Connects the profile `uuid`; BlueZ hands the socket to the local profile's `NewConnection`.
    public func connectProfile(device: String, uuid: String, timeout: Duration = .seconds(30)) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: device, interface: BlueZ.device, method: "ConnectProfile",
            arguments: [.string(uuid)], timeout: timeout)
    }

    /// Disconnects the profile `uuid`.
    public func disconnectProfile(device: String, uuid: String) async throws {
        _ = try await connection.call(
            destination: BlueZ.service, path: device, interface: BlueZ.device, method: "DisconnectProfile",
            arguments: [.string(uuid)], timeout: .seconds(10))
    }
}

/// The options of `ProfileManager1.RegisterProfile` that Relay sets (profile-api.txt).
public struct ProfileOptions: Sendable, Hashable {
    /// The side of the connection: the wearable serves, the phone connects.
    public enum Role: String, Sendable, Hashable {
        /// Listens (the wearable).
        case server
        /// Connects (the phone).
        case client
    }

    /// `Role`.
    public var role: Role
    /// `Channel`: the RFCOMM channel of a server; without it BlueZ opens no server for a custom UUID.
    public var channel: UInt16?
    /// `Name`, for the SDP record.
    public var name: String
    /// `RequireAuthentication`: only bonded devices may connect.
    public var requireAuthentication: Bool
    /// `RequireAuthorization`: untrusted devices need the agent's `AuthorizeService`.
    public var requireAuthorization: Bool
    /// `AutoConnect`: BlueZ connects the profile when the device connects (client only).
    public var autoConnect: Bool

    /// Relay's options for `role`.
    public init(
        role: Role, channel: UInt16? = nil, name: String = RelayService.name, requireAuthentication: Bool = true,
        requireAuthorization: Bool = true, autoConnect: Bool = false
    ) {
        self.role = role
        self.channel = channel
        self.name = name
        self.requireAuthentication = requireAuthentication
        self.requireAuthorization = requireAuthorization
        self.autoConnect = autoConnect
    }

    /// The `a{sv}` argument.
    public var dbusValue: DBusValue {
        var options: [String: DBusValue] = [
            "Name": .string(name), "Role": .string(role.rawValue),
            "RequireAuthentication": .boolean(requireAuthentication),
            "RequireAuthorization": .boolean(requireAuthorization), "AutoConnect": .boolean(autoConnect),
        ]
        if let channel { options["Channel"] = .uint16(channel) }
        return options.dbusValue
    }
}
