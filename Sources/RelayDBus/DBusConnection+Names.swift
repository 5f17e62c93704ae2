/// Options for ``DBusConnection/requestName(_:flags:)``, the `RequestName` flags of the D-Bus specification.
public struct DBusNameFlags: OptionSet, Sendable, Hashable {
    /// The flag bits as sent to the bus.
    public let rawValue: UInt32

    /// Wraps flag bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Let a later request with ``replaceExisting`` take the name from this connection.
    public static let allowReplacement = DBusNameFlags(rawValue: 0x1)
    /// Take the name from its current owner if that owner allowed replacement.
    public static let replaceExisting = DBusNameFlags(rawValue: 0x2)
    /// Fail with ``DBusRequestNameReply/exists`` instead of waiting in the queue for the name.
    public static let doNotQueue = DBusNameFlags(rawValue: 0x4)
}

/// The bus's answer to `RequestName`.
public enum DBusRequestNameReply: UInt32, Sendable, Hashable {
    /// This connection now owns the name.
    case primaryOwner = 1
    /// Another connection owns the name; this one is queued and will get it when it is released.
    case inQueue = 2
    /// Another connection owns the name, and ``DBusNameFlags/doNotQueue`` was given.
    case exists = 3
    /// This connection already owned the name.
    case alreadyOwner = 4
}

/// The bus's answer to `ReleaseName`.
public enum DBusReleaseNameReply: UInt32, Sendable, Hashable {
    /// The name was released (or this connection left its queue).
    case released = 1
    /// Nobody owned the name.
    case nonExistent = 2
    /// Another connection owns the name and this one was not queued for it.
    case notOwner = 3
}

extension DBusConnection {
    /// Asks the bus for a well-known name.
    ///
    /// Losing the name later is announced by the bus's `NameLost` signal, sent to this connection;
    /// watch for it with ``signals(matching:bufferingPolicy:)`` and
    /// `DBusMatchRule.signal(sender: "org.freedesktop.DBus", member: "NameLost")`.
    public func requestName(_ name: String, flags: DBusNameFlags = []) async throws -> DBusRequestNameReply {
        try DBusNames.requireBusName(name)
        guard !DBusNames.isUniqueName(name) else { throw DBusError.invalidArgs("Cannot request a unique name") }
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags.rawValue)])
        guard let result = DBusRequestNameReply(rawValue: try reply.decode(0, as: UInt32.self)) else {
            throw DBusError(.failed, "Unexpected RequestName reply \(reply)")
        }
        return result
    }

    /// Gives up a well-known name, or leaves the queue for it.
    public func releaseName(_ name: String) async throws -> DBusReleaseNameReply {
        try DBusNames.requireBusName(name)
        let reply = try await callBus("ReleaseName", [.string(name)])
        guard let result = DBusReleaseNameReply(rawValue: try reply.decode(0, as: UInt32.self)) else {
            throw DBusError(.failed, "Unexpected ReleaseName reply \(reply)")
        }
        return result
    }

    /// The unique name of the current owner of `name`, or `nil` if nobody owns it.
    public func nameOwner(of name: String) async throws -> String? {
        try DBusNames.requireBusName(name)
        do {
            return try await callBus("GetNameOwner", [.string(name)]).decode(0, as: String.self)
        } catch let error as DBusError where error.name == .nameHasNoOwner {
            return nil
        }
    }
}
