/// A received D-Bus message, fully decoded into Swift values.
///
/// Messages are decoded on the connection's loop thread as soon as they are dispatched, so a
/// `DBusMessage` holds no reference to libdbus and can be passed freely between tasks.
public struct DBusMessage: Sendable, CustomStringConvertible {
    /// The four D-Bus message types.
    public enum Kind: Sendable, Hashable {
        /// A method call.
        case methodCall
        /// A successful reply to a method call.
        case methodReturn
        /// An error reply to a method call.
        case error
        /// A signal.
        case signal

        /// The `type=` value of match rules.
        var matchRuleName: String {
            switch self {
            case .methodCall: "method_call"
            case .methodReturn: "method_return"
            case .error: "error"
            case .signal: "signal"
            }
        }
    }

    /// The message type.
    public var kind: Kind
    /// The sender's serial number for this message.
    public var serial: UInt32
    /// For replies, the serial of the call being answered.
    public var replySerial: UInt32?
    /// The unique name of the sender, when the message came through a bus.
    public var sender: String?
    /// The destination bus name; absent for broadcast signals.
    public var destination: String?
    /// The object path of a call or signal.
    public var path: DBusObjectPath?
    /// The interface of a call or signal; optional in method calls.
    public var interface: String?
    /// The method or signal name.
    public var member: String?
    /// The error name of an error reply.
    public var errorName: String?
    /// Whether the caller asked not to be replied to.
    public var noReplyExpected: Bool
    /// The decoded arguments.
    public var arguments: [DBusValue] {
        didSet { receivedSignature = nil }
    }
    /// The signature the message arrived with (libdbus validated it), while ``arguments`` are
    /// as received: routing every call would otherwise compute it again from the values.
    private var receivedSignature: DBusSignature?

    /// Creates a message description, e.g. to test ``DBusMatchRule/matches(_:)``.
    public init(
        kind: Kind, serial: UInt32, replySerial: UInt32? = nil, sender: String? = nil, destination: String? = nil,
        path: DBusObjectPath? = nil, interface: String? = nil, member: String? = nil, errorName: String? = nil,
        noReplyExpected: Bool = false, arguments: [DBusValue] = []
    ) {
        self.kind = kind
        self.serial = serial
        self.replySerial = replySerial
        self.sender = sender
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.noReplyExpected = noReplyExpected
        self.arguments = arguments
    }

    /// The signature of ``arguments``.
    public var signature: DBusSignature { receivedSignature ?? arguments.dbusSignature }

    /// Fills in the arguments of a message decoded without them, keeping the signature received.
    mutating func receive(arguments: [DBusValue]) {
        let signature = receivedSignature
        self.arguments = arguments
        receivedSignature = signature
    }

    /// A message as received, with the signature libdbus read from its header.
    init(received message: DBusMessage, signature: DBusSignature) {
        self = message
        receivedSignature = signature
    }

    /// For an error reply, the error it carries: its name and its first argument if that is a string.
    public var error: DBusError? {
        guard kind == .error else { return nil }
        var message = ""
        if case .string(let text)? = arguments.first { message = text }
        return DBusError(DBusError.Name(rawValue: errorName ?? DBusError.Name.failed.rawValue), message)
    }

    /// A one-line summary in the style of `dbus-monitor`.
    public var description: String {
        var parts = ["\(kind)", "serial=\(serial)"]
        if let replySerial { parts.append("reply_serial=\(replySerial)") }
        if let sender { parts.append("sender=\(sender)") }
        if let destination { parts.append("destination=\(destination)") }
        if let path { parts.append("path=\(path)") }
        if let interface { parts.append("interface=\(interface)") }
        if let member { parts.append("member=\(member)") }
        if let errorName { parts.append("error_name=\(errorName)") }
        parts.append("signature='\(signature)'")
        return parts.joined(separator: " ")
    }
}

/// An incoming method call on an exported object, as seen by a method handler.
public struct DBusMethodCall: Sendable {
    /// The complete message.
    public let message: DBusMessage

    /// The call's arguments, already checked against the method's declared input signature.
    public var arguments: [DBusValue] { message.arguments }
    /// The caller's unique bus name.
    public var sender: String? { message.sender }
    /// The object path that was called.
    public var path: DBusObjectPath { message.path ?? .root }
    /// The interface that was called, as resolved by the dispatcher.
    public let interface: String
    /// The method name.
    public var member: String { message.member ?? "" }
}
