/// Names of the standard interfaces every exported object implements.
enum StandardInterface {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"
    static let peer = "org.freedesktop.DBus.Peer"

    static let all: Set<String> = [introspectable, properties, peer]
}

extension DBusError.Name {
    /// An object is already exported at the path.
    public static let objectPathInUse: Self = "org.freedesktop.DBus.Error.ObjectPathInUse"
}

/// A method as dispatch finds it: the declaration and its input and output signatures.
struct ExportedMethod: Sendable {
    let method: DBusMethod
    let input: DBusSignature
    let output: DBusSignature
}

/// An interface whose declarations have been validated and indexed for dispatch. A class, so
/// that routing a call copies one reference rather than every table.
final class ExportedInterface: Sendable {
    let declaration: DBusInterface
    let methods: [String: ExportedMethod]
    let properties: [String: DBusProperty]
    let propertySignatures: [String: DBusSignature]

    var name: String { declaration.name }

    /// Checks every name and signature so that dispatch and introspection can rely on them.
    init(validating declaration: DBusInterface) throws {
        try DBusNames.requireInterface(declaration.name)
        guard !StandardInterface.all.contains(declaration.name) else {
            throw DBusError.invalidArgs("\(declaration.name) is implemented by the connection itself")
        }
        var methods: [String: ExportedMethod] = [:]
        for method in declaration.methods {
            try DBusNames.requireMember(method.name)
            guard methods[method.name] == nil else {
                throw DBusError.invalidArgs("Method \(declaration.name).\(method.name) is declared twice")
            }
            let member = "\(declaration.name).\(method.name)"
            methods[method.name] = ExportedMethod(
                method: method, input: try Self.signature(of: method.inputs, in: member),
                output: try Self.signature(of: method.outputs, in: member))
        }
        var signalNames: Set<String> = []
        for signal in declaration.signals {
            try DBusNames.requireMember(signal.name)
            guard signalNames.insert(signal.name).inserted else {
                throw DBusError.invalidArgs("Signal \(declaration.name).\(signal.name) is declared twice")
            }
            _ = try Self.signature(of: signal.arguments, in: "\(declaration.name).\(signal.name)")
        }
        var properties: [String: DBusProperty] = [:]
        var propertySignatures: [String: DBusSignature] = [:]
        for property in declaration.properties {
            try DBusNames.requireMember(property.name)
            guard properties[property.name] == nil else {
                throw DBusError.invalidArgs("Property \(declaration.name).\(property.name) is declared twice")
            }
            let signature = try DBusSignature(property.signature)
            guard signature.isSingleCompleteType else {
                throw DBusError.invalidArgs("Property \(property.name) has type '\(signature)', not one complete type")
            }
            properties[property.name] = property
            propertySignatures[property.name] = signature
        }
        self.declaration = declaration
        self.methods = methods
        self.properties = properties
        self.propertySignatures = propertySignatures
    }

    private static func signature(of arguments: [DBusArgument], in member: String) throws -> DBusSignature {
        for argument in arguments {
            let signature = try DBusSignature(argument.signature)
            guard signature.isSingleCompleteType else {
                throw DBusError.invalidArgs(
                    "An argument of \(member) has type '\(signature)', which is not one complete type")
            }
        }
        return try DBusSignature(arguments.map(\.signature).joined())
    }
}

/// What the dispatcher decided to do with an incoming method call.
enum CallRoute {
    /// Reply right away, on the loop thread.
    case reply([DBusValue])
    /// Reply with an error right away.
    case error(DBusError)
    /// Run the work in a task and reply with its result, which must have `outputSignature`.
    case work(outputSignature: DBusSignature, @Sendable () async throws -> [DBusValue])
    /// Run the handler on the loop thread; it replies through a pending reply, now or later.
    case replying(outputSignature: DBusSignature, DBusMethodCall, DBusMethod.ReplyingHandler)
    /// Run the handler on the loop thread with a reader over the message; it replies like `replying`.
    case reading(outputSignature: DBusSignature, DBusMethodCall, DBusMethod.ReadingHandler)
}

/// The objects exported on one connection, keyed by object path.
///
/// Held in a mutex by the connection: exported from any thread, read by the loop thread while
/// dispatching. Routing only copies out `Sendable` handlers; handlers never run under the lock.
struct ObjectRegistry: Sendable {
    private var objects: [DBusObjectPath: [ExportedInterface]] = [:]
    private var isClosed = false

    /// Drops every object for good: the connection has ended, and handlers that capture it must go
    /// so that the connection (and whatever else they hold) can be freed.
    mutating func close() {
        objects.removeAll()
        isClosed = true
    }

    mutating func export(_ interfaces: [ExportedInterface], at path: DBusObjectPath) throws {
        guard !isClosed else { throw DBusError.connectionClosed }
        guard objects[path] == nil else {
            throw DBusError(.objectPathInUse, "An object is already exported at \(path)")
        }
        var seen: Set<String> = []
        for interface in interfaces where !seen.insert(interface.name).inserted {
            throw DBusError.invalidArgs("Interface \(interface.name) is listed twice for \(path)")
        }
        objects[path] = interfaces
    }

    @discardableResult
    mutating func unexport(_ path: DBusObjectPath) -> Bool {
        objects.removeValue(forKey: path) != nil
    }

    /// The names of the nodes directly below `path` that lead to exported objects.
    func children(of path: DBusObjectPath) -> [String] {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names: Set<String> = []
        for candidate in objects.keys where candidate.rawValue.hasPrefix(prefix) && candidate != path {
            let rest = candidate.rawValue.dropFirst(prefix.count)
            if let child = rest.split(separator: "/").first { names.insert(String(child)) }
        }
        return names.sorted()
    }

    /// Decides how to answer `message`, a method call addressed to this connection.
    func route(_ message: DBusMessage) -> CallRoute {
        let path = message.path ?? .root
        let member = message.member ?? ""
        let interfaceName = message.interface
        let signature = message.signature

        if (interfaceName == nil || interfaceName == StandardInterface.introspectable) && member == "Introspect" {
            guard signature.isEmpty else { return .error(invalidArguments(signature, expected: .empty, member)) }
            let interfaces = objects[path]
            let children = children(of: path)
            guard interfaces != nil || !children.isEmpty else { return .error(unknownObject(path)) }
            return .reply([.string(Introspection.xml(interfaces: interfaces, children: children))])
        }
        guard let interfaces = objects[path] else { return .error(unknownObject(path)) }

        if interfaceName == StandardInterface.properties {
            return routeProperties(message, interfaces: interfaces, path: path)
        }
        let candidates: [ExportedInterface]
        if let interfaceName {
            guard let interface = interfaces.first(where: { $0.name == interfaceName }) else {
                return .error(DBusError(
                    .unknownInterface, "No such interface '\(interfaceName)' at object path '\(path)'"))
            }
            candidates = [interface]
        } else {
            candidates = interfaces
        }
        guard let interface = candidates.first(where: { $0.methods[member] != nil }),
            let exported = interface.methods[member]
        else {
            return .error(DBusError(
                .unknownMethod,
                "No such method '\(member)' in interface '\(interfaceName ?? "")' at object path '\(path)' "
                    + "(signature '\(signature)')"))
        }
        guard signature == exported.input else {
            return .error(invalidArguments(signature, expected: exported.input, member))
        }
        let call = DBusMethodCall(message: message, interface: interface.name)
        if let replying = exported.method.replying { return .replying(outputSignature: exported.output, call, replying) }
        let handler = exported.method.handler
        return .work(outputSignature: exported.output) { try await handler(call) }
    }

    /// The route of `message`, decoded without its arguments, when it calls a method that reads
    /// them itself (``DBusMethod/reading``) with the signature that method declares: nothing
    /// needs the arguments decoded then. `nil` for every other call, which ``route(_:)`` takes
    /// once they are. (No exported interface has a standard interface's name, so calls of
    /// those, and calls that name no interface, are all left to ``route(_:)``.)
    func readingRoute(_ message: DBusMessage) -> CallRoute? {
        guard let interfaceName = message.interface, let member = message.member,
            let interface = objects[message.path ?? .root]?.first(where: { $0.name == interfaceName }),
            let exported = interface.methods[member], let reading = exported.method.reading,
            message.signature == exported.input
        else { return nil }
        return .reading(outputSignature: exported.output, DBusMethodCall(message: message, interface: interfaceName), reading)
    }

    // MARK: org.freedesktop.DBus.Properties

    private func routeProperties(_ message: DBusMessage, interfaces: [ExportedInterface], path: DBusObjectPath)
        -> CallRoute
    {
        let arguments = message.arguments
        let member = message.member ?? ""
        switch member {
        case "Get":
            guard case .string(let interfaceName) = arguments.first, arguments.count == 2,
                case .string(let propertyName) = arguments[1]
            else { return .error(invalidArguments(message.signature, expected: DBusSignature(unchecked: "ss"), member)) }
            switch lookUpProperty(propertyName, interfaceName, in: interfaces, path: path) {
            case .failure(let error): return .error(error)
            case .success(let (property, signature)):
                return .work(outputSignature: .variant) {
                    [.variant(try await Self.read(property, expecting: signature))]
                }
            }
        case "GetAll":
            guard arguments.count == 1, case .string(let interfaceName) = arguments[0] else {
                return .error(invalidArguments(message.signature, expected: .string, member))
            }
            let selected = interfaceName.isEmpty ? interfaces : interfaces.filter { $0.name == interfaceName }
            guard !selected.isEmpty else {
                return .error(DBusError(
                    .unknownInterface, "No such interface '\(interfaceName)' at object path '\(path)'"))
            }
            let properties = selected.flatMap { interface in
                interface.declaration.properties.compactMap { property in
                    interface.propertySignatures[property.name].map { (property, $0) }
                }
            }
            return .work(outputSignature: DBusSignature(unchecked: "a{sv}")) {
                var entries: [DBusDictionaryEntry] = []
                for (property, signature) in properties {
                    let value = try await Self.read(property, expecting: signature)
                    entries.append(DBusDictionaryEntry(key: .string(property.name), value: .variant(value)))
                }
                return [.dictionary(keySignature: .string, valueSignature: .variant, entries: entries)]
            }
        case "Set":
            guard arguments.count == 3, case .string(let interfaceName) = arguments[0],
                case .string(let propertyName) = arguments[1], case .variant(let value) = arguments[2]
            else { return .error(invalidArguments(message.signature, expected: DBusSignature(unchecked: "ssv"), member)) }
            switch lookUpProperty(propertyName, interfaceName, in: interfaces, path: path) {
            case .failure(let error): return .error(error)
            case .success(let (property, signature)):
                guard let setter = property.setter else {
                    return .error(DBusError(.propertyReadOnly, "Property '\(propertyName)' is not writable"))
                }
                guard value.signature == signature else {
                    return .error(DBusError.invalidArgs(
                        "Property '\(propertyName)' has type '\(signature)', not '\(value.signature)'"))
                }
                return .work(outputSignature: .empty) {
                    try await setter(value)
                    return []
                }
            }
        default:
            return .error(DBusError(
                .unknownMethod, "No such method '\(member)' in interface '\(StandardInterface.properties)'"))
        }
    }

    private func lookUpProperty(
        _ name: String, _ interfaceName: String, in interfaces: [ExportedInterface], path: DBusObjectPath
    ) -> Result<(DBusProperty, DBusSignature), DBusError> {
        let selected = interfaceName.isEmpty ? interfaces : interfaces.filter { $0.name == interfaceName }
        if selected.isEmpty {
            return .failure(DBusError(
                .unknownInterface, "No such interface '\(interfaceName)' at object path '\(path)'"))
        }
        for interface in selected {
            if let property = interface.properties[name], let signature = interface.propertySignatures[name] {
                return .success((property, signature))
            }
        }
        return .failure(DBusError(.unknownProperty, "No such property '\(name)' in interface '\(interfaceName)'"))
    }

    /// Runs a getter and insists on the declared type, so a buggy getter yields an error, not a lie.
    private static func read(_ property: DBusProperty, expecting signature: DBusSignature) async throws -> DBusValue {
        let value = try await property.getter()
        guard value.signature == signature else {
            throw DBusError(
                .failed, "Property '\(property.name)' produced a value of type '\(value.signature)', not '\(signature)'")
        }
        return value
    }

    private func unknownObject(_ path: DBusObjectPath) -> DBusError {
        DBusError(.unknownObject, "No such object path '\(path)'")
    }

    private func invalidArguments(_ actual: DBusSignature, expected: DBusSignature, _ member: String) -> DBusError {
        DBusError.invalidArgs("Invalid arguments '\(actual)' to call \(member)(), expecting '\(expected)'")
    }
}
