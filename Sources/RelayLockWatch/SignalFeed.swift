import RelayDBus

/// The signals of one service, in the order the bus delivered them.
///
/// One stream of every signal the connection receives, plus bus-side match rules, rather than
/// one `signals(matching:)` stream per rule: separate streams are forwarded independently, so a
/// service's `NameOwnerChanged` could overtake a property change its old owner sent before it.
struct SignalFeed: Sendable {
    let messages: AsyncStream<DBusMessage>
    private let connection: DBusConnection
    private let rules: [DBusMatchRule]

    /// Subscribes first and then adds the rules, so nothing they select can be missed.
    static func open(on connection: DBusConnection, rules: [DBusMatchRule]) async throws -> SignalFeed {
        let messages = try await connection.signals()
        for rule in rules { try await connection.addMatch(rule) }
        return SignalFeed(messages: messages, connection: connection, rules: rules)
    }

    private init(messages: AsyncStream<DBusMessage>, connection: DBusConnection, rules: [DBusMatchRule]) {
        self.messages = messages
        self.connection = connection
        self.rules = rules
    }

    /// Removes the rules. Detached, because the watcher's own task is usually cancelled by then,
    /// and a cancelled task's calls fail at once.
    func close() {
        let (connection, rules) = (connection, rules)
        Task.detached {
            for rule in rules { try? await connection.removeMatch(rule) }
        }
    }

    /// The new owner when `message` is `NameOwnerChanged` for `name`: `.some(nil)` when it left.
    static func ownerChange(_ message: DBusMessage, of name: String) -> String?? {
        guard message.member == "NameOwnerChanged", message.interface == "org.freedesktop.DBus",
            message.sender == "org.freedesktop.DBus", message.arguments.count == 3,
            case .string(name) = message.arguments[0], case .string(let owner) = message.arguments[2]
        else { return nil }
        return .some(owner.isEmpty ? nil : owner)
    }

    /// The interface and changed values of a `PropertiesChanged` signal, plus the invalidated names.
    static func propertiesChanged(_ message: DBusMessage) -> (interface: String, changed: [String: DBusValue], invalidated: [String])? {
        guard message.member == "PropertiesChanged", message.interface == "org.freedesktop.DBus.Properties",
            message.arguments.count == 3, case .string(let interface) = message.arguments[0],
            case .dictionary(_, _, let entries) = message.arguments[1],
            case .array(_, let names) = message.arguments[2]
        else { return nil }
        var changed: [String: DBusValue] = [:]
        for entry in entries {
            if case .string(let key) = entry.key { changed[key] = entry.value.unwrappingVariant }
        }
        let invalidated = names.compactMap { name -> String? in
            if case .string(let text) = name { return text }
            return nil
        }
        return (interface, changed, invalidated)
    }
}

extension DBusConnection {
    /// `org.freedesktop.DBus.Properties.Get`, with the variant unwrapped.
    func property(_ name: String, of interface: String, at path: String, on destination: String) async throws -> DBusValue {
        let reply = try await call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string(interface), .string(name)], timeout: .seconds(5))
        guard let value = reply.first else { throw DBusError(.invalidArgs, "Get \(interface).\(name) returned nothing") }
        return value.unwrappingVariant
    }
}
