import CDBus

/// A libdbus message under construction or about to be sent; owns one reference.
///
/// Loop thread only (non-Sendable on purpose). Every constructor takes names that were validated in
/// Swift beforehand: libdbus aborts the process on invalid header fields instead of failing.
final class OutgoingMessage {
    let pointer: OpaquePointer

    private init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { dbus_message_unref(pointer) }

    /// Whether the message carries file descriptors, which the transport must support.
    var containsUnixFDs: Bool { dbus_message_contains_unix_fds(pointer) != 0 }

    static func methodCall(_ request: MethodCallRequest) throws -> OutgoingMessage {
        let created = withOptionalCString(request.destination) { destination in
            withOptionalCString(request.interface) { interface in
                dbus_message_new_method_call(destination, request.path, interface, request.method)
            }
        }
        let message = try wrap(created)
        if request.noReplyExpected { dbus_message_set_no_reply(message.pointer, 1) }
        try MessageEncoder.append(request.arguments, to: message.pointer)
        return message
    }

    static func signal(_ request: SignalRequest) throws -> OutgoingMessage {
        // The arguments go in before the header fields: libdbus rewrites the header's signature
        // field for every argument appended, which costs less while the header is still empty
        // (a signal of two numbers: 4.7 µs instead of 5.5 µs, and one goes out for every
        // notification pushed out at an app's limit).
        let message = try wrap(dbus_message_new(DBUS_MESSAGE_TYPE_SIGNAL))
        try MessageEncoder.append(request.arguments, to: message.pointer)
        guard dbus_message_set_path(message.pointer, request.path) != 0,
            dbus_message_set_interface(message.pointer, request.interface) != 0,
            dbus_message_set_member(message.pointer, request.member) != 0
        else { throw outOfMemory }
        if let destination = request.destination {
            guard dbus_message_set_destination(message.pointer, destination) != 0 else { throw outOfMemory }
        }
        // As dbus_message_new_signal does: nothing answers a signal.
        dbus_message_set_no_reply(message.pointer, 1)
        return message
    }

    /// A method return built from the call's header fields rather than the call message itself, so that
    /// a reply can be produced long after the call was dispatched and its libdbus message released.
    static func methodReturn(to call: ReplyAddress, arguments: [DBusValue]) throws -> OutgoingMessage {
        let message = try wrap(dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN))
        try address(message, to: call)
        try MessageEncoder.append(arguments, to: message.pointer)
        return message
    }

    static func error(to call: ReplyAddress, _ error: DBusError) throws -> OutgoingMessage {
        let message = try wrap(dbus_message_new(DBUS_MESSAGE_TYPE_ERROR))
        let name = DBusNames.isValidErrorName(error.name.rawValue) ? error.name : .failed
        guard dbus_message_set_error_name(message.pointer, name.rawValue) != 0 else { throw outOfMemory }
        try address(message, to: call)
        // D-Bus strings cannot contain NUL; an error text is not worth failing the reply over.
        let text = String(decoding: error.message.utf8.filter { $0 != 0 }, as: UTF8.self)
        try MessageEncoder.append([.string(text)], to: message.pointer)
        return message
    }

    private static func address(_ message: OutgoingMessage, to call: ReplyAddress) throws {
        guard dbus_message_set_reply_serial(message.pointer, call.serial) != 0 else { throw outOfMemory }
        if let sender = call.sender {
            guard dbus_message_set_destination(message.pointer, sender) != 0 else { throw outOfMemory }
        }
        // Replies never expect replies; libdbus's own reply constructors set this too.
        dbus_message_set_no_reply(message.pointer, 1)
    }

    private static func wrap(_ pointer: OpaquePointer?) throws -> OutgoingMessage {
        guard let pointer else { throw outOfMemory }
        return OutgoingMessage(pointer)
    }

    private static let outOfMemory = DBusError(.noMemory, "Out of memory while building a D-Bus message")
}

private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// A validated method call, ready to be turned into a libdbus message on the loop thread.
struct MethodCallRequest: Sendable {
    var destination: String?
    var path: String
    var interface: String?
    var method: String
    var arguments: [DBusValue]
    var noReplyExpected = false

    init(destination: String?, path: String, interface: String?, method: String, arguments: [DBusValue]) throws {
        if let destination { try DBusNames.requireBusName(destination) }
        try DBusNames.requireObjectPath(path)
        if let interface { try DBusNames.requireInterface(interface) }
        try DBusNames.requireMember(method)
        try validateArguments(arguments)
        self.destination = destination
        self.path = path
        self.interface = interface
        self.method = method
        self.arguments = arguments
    }
}

/// A validated signal, ready to be turned into a libdbus message on the loop thread.
struct SignalRequest: Sendable {
    var path: String
    var interface: String
    var member: String
    var destination: String?
    var arguments: [DBusValue]

    init(path: String, interface: String, member: String, destination: String?, arguments: [DBusValue]) throws {
        try DBusNames.requireObjectPath(path)
        try DBusNames.requireInterface(interface)
        try DBusNames.requireMember(member)
        if let destination { try DBusNames.requireBusName(destination) }
        try validateArguments(arguments)
        self.path = path
        self.interface = interface
        self.member = member
        self.destination = destination
        self.arguments = arguments
    }
}

/// Where a reply to a method call goes: the caller and the serial being answered.
struct ReplyAddress: Sendable {
    var serial: UInt32
    var sender: String?
    var noReplyExpected: Bool

    init(_ call: DBusMessage) {
        serial = call.serial
        sender = call.sender
        noReplyExpected = call.noReplyExpected
    }
}

/// Throws `InvalidArgs` unless the values can form the body of one message.
func validateArguments(_ arguments: [DBusValue]) throws {
    // The signature's length, added up rather than the signature built: a signal or a reply of a
    // few numbers is checked on every send, and its signature is one byte a value.
    var length = 0
    for argument in arguments {
        try argument.validate()
        switch argument {
        case .array, .bytes, .dictionary, .structure: length += argument.signature.rawValue.utf8.count
        default: length += 1
        }
    }
    guard length <= DBusSignature.maximumLength else {
        throw DBusError.invalidArgs("The arguments' signature '\(arguments.dbusSignature)' is longer than 255 bytes")
    }
}
