/// A D-Bus match rule: which messages the bus should route to this connection.
///
/// The same rule is also applied locally, so that each ``DBusConnection/signals(matching:bufferingPolicy:)``
/// stream sees only the messages its own rule selects even though the bus delivers the union of all
/// rules on the connection. Unset fields match anything.
public struct DBusMatchRule: Sendable, Hashable, CustomStringConvertible {
    /// The message type; `nil` matches all types.
    public var kind: DBusMessage.Kind?
    /// The sender: a unique name, or a well-known name whose current owner is tracked.
    public var sender: String?
    /// The interface.
    public var interface: String?
    /// The method or signal name.
    public var member: String?
    /// The exact object path.
    public var path: String?
    /// An object path and everything below it.
    public var pathNamespace: String?
    /// The destination bus name.
    public var destination: String?
    /// String arguments that must be equal, by argument index (0…63).
    public var arguments: [Int: String]
    /// String or object path arguments that must match as paths (equal, or prefix ending in `/`).
    public var argumentPaths: [Int: String]
    /// A bus name namespace that string argument 0 must be in (`org.example` matches `org.example.Foo`).
    public var arg0Namespace: String?

    /// Creates a rule; unset fields match anything.
    public init(
        kind: DBusMessage.Kind? = .signal, sender: String? = nil, interface: String? = nil, member: String? = nil,
        path: String? = nil, pathNamespace: String? = nil, destination: String? = nil,
        arguments: [Int: String] = [:], argumentPaths: [Int: String] = [:], arg0Namespace: String? = nil
    ) {
        self.kind = kind
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.destination = destination
        self.arguments = arguments
        self.argumentPaths = argumentPaths
        self.arg0Namespace = arg0Namespace
    }

    /// Signals, optionally narrowed by sender, interface, member and path.
    public static func signal(
        sender: String? = nil, interface: String? = nil, member: String? = nil, path: String? = nil
    ) -> DBusMatchRule {
        DBusMatchRule(kind: .signal, sender: sender, interface: interface, member: member, path: path)
    }

    /// The bus's `NameOwnerChanged` signal, for one name or for all names.
    ///
    /// The signal's arguments are the name, the old owner and the new owner (empty when none).
    public static func nameOwnerChanged(name: String? = nil) -> DBusMatchRule {
        DBusMatchRule(
            kind: .signal, sender: busName, interface: busName, member: "NameOwnerChanged",
            path: busPath, arguments: name.map { [0: $0] } ?? [:])
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged`, optionally for one object and interface.
    public static func propertiesChanged(
        sender: String? = nil, path: String? = nil, interface: String? = nil
    ) -> DBusMatchRule {
        DBusMatchRule(
            kind: .signal, sender: sender, interface: "org.freedesktop.DBus.Properties",
            member: "PropertiesChanged", path: path, arguments: interface.map { [0: $0] } ?? [:])
    }

    /// The rule in the bus's text syntax, e.g. `type='signal',interface='org.example.I'`.
    public var description: String {
        var parts: [String] = []
        func add(_ key: String, _ value: String?) {
            // Rule values are quoted; a quote inside is written as '\'' (close, escaped quote, reopen).
            if let value { parts.append("\(key)='" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'") }
        }
        add("type", kind?.matchRuleName)
        add("sender", sender)
        add("interface", interface)
        add("member", member)
        add("path", path)
        add("path_namespace", pathNamespace)
        add("destination", destination)
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)", value) }
        for (index, value) in argumentPaths.sorted(by: { $0.key < $1.key }) { add("arg\(index)path", value) }
        add("arg0namespace", arg0Namespace)
        return parts.joined(separator: ",")
    }

    /// Throws `InvalidArgs` (or `MatchRuleInvalid`) unless the bus would accept the rule.
    func validate() throws {
        if let sender { try DBusNames.requireBusName(sender) }
        if let interface { try DBusNames.requireInterface(interface) }
        if let member { try DBusNames.requireMember(member) }
        if let path { try DBusNames.requireObjectPath(path) }
        if let pathNamespace { try DBusNames.requireObjectPath(pathNamespace) }
        if let destination { try DBusNames.requireBusName(destination) }
        guard path == nil || pathNamespace == nil else {
            throw DBusError(.matchRuleInvalid, "A rule cannot have both path and path_namespace")
        }
        let indices = Array(arguments.keys) + Array(argumentPaths.keys)
        guard indices.allSatisfy({ (0...63).contains($0) }) else {
            throw DBusError(.matchRuleInvalid, "Argument indices must be between 0 and 63")
        }
        guard Set(arguments.keys).isDisjoint(with: argumentPaths.keys) else {
            throw DBusError(.matchRuleInvalid, "An argument cannot be matched both as a string and as a path")
        }
        if arg0Namespace != nil && (arguments[0] != nil || argumentPaths[0] != nil) {
            throw DBusError(.matchRuleInvalid, "arg0namespace cannot be combined with another arg0 match")
        }
        let values = [arg0Namespace].compactMap { $0 } + arguments.values + argumentPaths.values
        guard !values.contains(where: { $0.utf8.contains(0) }) else {
            throw DBusError(.matchRuleInvalid, "Match rule values cannot contain NUL")
        }
    }

    /// Whether `message` satisfies the rule, taking a `sender` well-known name as matching nothing.
    ///
    /// Messages carry their sender's unique name, so a rule naming a well-known sender needs that
    /// name's current owner; connections track owners for their subscriptions and supply them here.
    public func matches(_ message: DBusMessage) -> Bool {
        matches(message, ownerOf: { _ in nil })
    }

    func matches(_ message: DBusMessage, ownerOf: (String) -> String?) -> Bool {
        if let kind, message.kind != kind { return false }
        if let sender {
            let expected = Self.needsOwnerTracking(sender) ? ownerOf(sender) : sender
            guard let expected, message.sender == expected else { return false }
        }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path?.rawValue != path { return false }
        if let pathNamespace {
            guard let messagePath = message.path,
                messagePath.isDescendant(ofOrEqualTo: DBusObjectPath(unchecked: pathNamespace))
            else { return false }
        }
        if let destination, message.destination != destination { return false }
        for (index, expected) in arguments {
            guard index < message.arguments.count, case .string(let actual) = message.arguments[index],
                actual == expected
            else { return false }
        }
        for (index, expected) in argumentPaths {
            guard index < message.arguments.count else { return false }
            let actual: String
            switch message.arguments[index] {
            case .string(let text): actual = text
            case .objectPath(let objectPath): actual = objectPath.rawValue
            default: return false
            }
            guard Self.pathsMatch(actual, expected) else { return false }
        }
        if let arg0Namespace {
            guard case .string(let name)? = message.arguments.first,
                name == arg0Namespace || name.hasPrefix(arg0Namespace + ".")
            else { return false }
        }
        return true
    }

    /// Whether a `sender` value is a well-known name, which must be resolved to its owner to match.
    static func needsOwnerTracking(_ sender: String) -> Bool {
        !DBusNames.isUniqueName(sender) && sender != busName
    }

    /// `argNpath` semantics: equal, or one is a prefix of the other and that prefix ends with `/`.
    private static func pathsMatch(_ actual: String, _ expected: String) -> Bool {
        if actual == expected { return true }
        if expected.hasSuffix("/") && actual.hasPrefix(expected) { return true }
        if actual.hasSuffix("/") && expected.hasPrefix(actual) { return true }
        return false
    }

    static let busName = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"
}
