public import RelayDBus

/// A connection BlueZ handed to a profile: `Profile1.NewConnection(device, fd, properties)`.
public struct ProfileConnection: Sendable {
    /// The remote device's object path.
    public var device: String
    /// The connected RFCOMM socket. bluetoothd keeps its own copy, so closing ours does not end
    /// the link: `shutdown()` it (or call `DisconnectProfile`).
    public var descriptor: DBusUnixFD
    /// `Version`, `Features` and the like, as BlueZ sent them.
    public var properties: [String: DBusValue]
}

/// Relay's `org.bluez.Profile1` object: what bluetoothd calls when a profile connection is
/// made, when the remote asks to disconnect, and when it drops the registration.
public struct ProfileEndpoint: Sendable {
    /// Called for each new connection; throwing refuses it (BlueZ then closes the socket).
    public typealias ConnectionHandler = @Sendable (ProfileConnection) async throws -> Void
    /// Called with a device's path when BlueZ asks the profile to disconnect from it.
    public typealias DisconnectionHandler = @Sendable (String) async -> Void
    /// Called when bluetoothd unregisters the profile (it is shutting down, for example).
    public typealias ReleaseHandler = @Sendable () async -> Void

    /// Where the object is exported.
    public let path: String
    let connectedHandler: ConnectionHandler
    let disconnectionHandler: DisconnectionHandler
    let releaseHandler: ReleaseHandler

    /// A profile object at `path` with its handlers.
    public init(
        path: String, connected: @escaping ConnectionHandler,
        disconnectionRequested: @escaping DisconnectionHandler = { _ in }, released: @escaping ReleaseHandler = {}
    ) {
        self.path = path
        connectedHandler = connected
        disconnectionHandler = disconnectionRequested
        releaseHandler = released
    }

    /// The interface to export.
    public var interface: DBusInterface {
        let connected = connectedHandler
        let disconnectionRequested = disconnectionHandler
        let released = releaseHandler
        return DBusInterface(
            BlueZ.profile,
            methods: [
                DBusMethod("Release") { _ in
                    await released()
                    return []
                },
                DBusMethod(
                    "NewConnection", inputs: [DBusArgument("device", "o"), DBusArgument("fd", "h"), DBusArgument("fd_properties", "a{sv}")]
                ) { call in
                    let device = try call.arguments.decode(0, as: DBusObjectPath.self)
                    guard case .unixFD(let descriptor) = call.arguments[1] else {
                        throw DBusError(.invalidArgs, "NewConnection needs a file descriptor")
                    }
                    let properties = try call.arguments.decode(2, as: [String: DBusValue].self)
                    do {
                        try await connected(
                            ProfileConnection(device: device.rawValue, descriptor: descriptor, properties: properties))
                    } catch let error as DBusError {
                        throw error
                    } catch {
                        throw DBusError(DBusError.Name(rawValue: BlueZ.ErrorName.rejected), "\(error)")
                    }
                    return []
                },
                DBusMethod("RequestDisconnection", inputs: [DBusArgument("device", "o")]) { call in
                    await disconnectionRequested(try call.arguments.decode(0, as: DBusObjectPath.self).rawValue)
                    return []
                },
            ])
    }

    /// Exports the object on `connection`.
    public func export(on connection: DBusConnection) throws {
        try connection.export([interface], at: path)
    }
}
