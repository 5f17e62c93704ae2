public import RelayDBus

/// An `org.bluez.Adapter1` as read from bluetoothd's object manager.
public struct BlueZAdapter: Sendable, Hashable {
    /// Its object path, e.g. `/org/bluez/hci0`.
    public var path: String
    /// The last element of the path, e.g. `hci0`.
    public var name: String { String(path.split(separator: "/").last ?? Substring(path)) }
    /// Its own address.
    public var address: String
    /// Its friendly name.
    public var alias: String
    /// Whether the radio is on.
    public var powered: Bool
    /// Whether it accepts new bonds.
    public var pairable: Bool
    /// Whether discovery is running.
    public var discovering: Bool

    /// Reads the adapter's properties; missing ones count as off / empty.
    public init(path: String, properties: [String: DBusValue]) {
        self.path = path
        address = properties.string("Address") ?? ""
        alias = properties.string("Alias") ?? properties.string("Name") ?? ""
        powered = properties.bool("Powered") ?? false
        pairable = properties.bool("Pairable") ?? false
        discovering = properties.bool("Discovering") ?? false
    }
}

/// An `org.bluez.Device1` as read from bluetoothd's object manager.
public struct BlueZDevice: Sendable, Hashable {
    /// Its object path, e.g. `/org/bluez/hci0/dev_01_23_45_67_89_AB`.
    public var path: String
    /// The adapter it belongs to.
    public var adapterPath: String
    /// Its address as BlueZ reports it.
    public var address: String
    /// Its name (the alias, which defaults to the remote name).
    public var name: String
    /// Bonded: keys are stored (`Paired`, and `Bonded` where BlueZ reports it).
    public var paired: Bool
    /// Whether BlueZ lets it connect without asking the agent.
    public var trusted: Bool
    /// Whether a baseband link is up.
    public var connected: Bool
    /// The service UUIDs it offers, lower case.
    public var uuids: [String]
    /// Signal strength in dBm from the last inquiry or advertisement, when BlueZ has one.
    public var rssi: Int?

    /// Reads the device's properties; missing ones count as false / empty.
    public init(path: String, properties: [String: DBusValue]) {
        self.path = path
        adapterPath = properties.objectPath("Adapter") ?? String(path.split(separator: "/").dropLast().joined(separator: "/")).withLeadingSlash
        address = properties.string("Address") ?? ""
        name = properties.string("Alias") ?? properties.string("Name") ?? address
        paired = (properties.bool("Paired") ?? false) || (properties.bool("Bonded") ?? false)
        trusted = properties.bool("Trusted") ?? false
        connected = properties.bool("Connected") ?? false
        uuids = ((try? properties["UUIDs"]?.decode([String].self)) ?? []).map { $0.lowercased() }
        if case .int16(let value)? = properties["RSSI"] { rssi = Int(value) } else { rssi = nil }
    }

    /// Whether the device offers Relay's service.
    public var offersRelay: Bool { uuids.contains(RelayService.uuid) }

    /// Applies a `PropertiesChanged` update.
    public mutating func update(_ changed: [String: DBusValue]) {
        var merged = changed
        if merged["Address"] == nil { merged["Address"] = .string(address) }
        if merged["Alias"] == nil && merged["Name"] == nil { merged["Alias"] = .string(name) }
        if merged["Adapter"] == nil, let adapter = try? DBusObjectPath(adapterPath) { merged["Adapter"] = .objectPath(adapter) }
        if merged["Paired"] == nil && merged["Bonded"] == nil { merged["Paired"] = .boolean(paired) }
        if merged["Trusted"] == nil { merged["Trusted"] = .boolean(trusted) }
        if merged["Connected"] == nil { merged["Connected"] = .boolean(connected) }
        if merged["UUIDs"] == nil { merged["UUIDs"] = DBusValue.array(uuids) }
        if merged["RSSI"] == nil, let rssi { merged["RSSI"] = .int16(Int16(clamping: rssi)) }
        self = BlueZDevice(path: path, properties: merged)
    }
}

/// Every adapter and device bluetoothd reports (`ObjectManager.GetManagedObjects`).
public struct BlueZObjects: Sendable, Hashable {
    /// The adapters, by path.
    public var adapters: [BlueZAdapter]
    /// The devices, by path.
    public var devices: [BlueZDevice]

    /// Sorts the object manager's answer into adapters and devices.
    public init(managedObjects: [DBusObjectPath: [String: [String: DBusValue]]]) {
        adapters = managedObjects.compactMap { path, interfaces in
            interfaces[BlueZ.adapter].map { BlueZAdapter(path: path.rawValue, properties: $0) }
        }.sorted { $0.path < $1.path }
        devices = managedObjects.compactMap { path, interfaces in
            interfaces[BlueZ.device].map { BlueZDevice(path: path.rawValue, properties: $0) }
        }.sorted { $0.path < $1.path }
    }

    /// The adapter named `name` (`hci0`) or with that address; without a name, the first one.
    public func adapter(named name: String?) -> BlueZAdapter? {
        guard let name, !name.isEmpty else { return adapters.first }
        return adapters.first { $0.name == name || $0.address.uppercased() == name.uppercased() || $0.path == name }
    }

    /// The device with `address` on `adapter`.
    public func device(_ address: BluetoothAddress, on adapter: BlueZAdapter) -> BlueZDevice? {
        devices.first { $0.adapterPath == adapter.path && $0.address.uppercased() == address.description }
    }

    /// The bonded devices on `adapter` that offer Relay's service.
    public func bondedRelayDevices(on adapter: BlueZAdapter) -> [BlueZDevice] {
        devices.filter { $0.adapterPath == adapter.path && $0.paired && $0.offersRelay }
    }
}

extension Dictionary where Key == String, Value == DBusValue {
    func string(_ key: String) -> String? {
        if case .string(let value)? = self[key] { return value }
        return nil
    }

    func bool(_ key: String) -> Bool? {
        if case .boolean(let value)? = self[key] { return value }
        return nil
    }

    func objectPath(_ key: String) -> String? {
        if case .objectPath(let value)? = self[key] { return value.rawValue }
        return nil
    }
}

extension String {
    fileprivate var withLeadingSlash: String { hasPrefix("/") ? self : "/" + self }
}
