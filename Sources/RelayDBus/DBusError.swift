import CDBus

/// A D-Bus error: a dotted error name and a human-readable message.
///
/// Every error this module throws is a `DBusError`, except `CancellationError` when the task awaiting
/// a call is cancelled. Error replies from peers arrive as `DBusError`s carrying the peer's name and
/// message; a `DBusError` thrown by an exported method handler is sent back to the caller as an error
/// reply. Local failures use the standard `org.freedesktop.DBus.Error.*` names, so callers can handle
/// "the peer rejected the arguments" and "our own arguments were invalid" the same way.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A D-Bus error name such as `org.freedesktop.DBus.Error.Failed`.
    ///
    /// Names are not validated on construction; an invalid name in an error reply is replaced by
    /// `org.freedesktop.DBus.Error.Failed` when the reply is sent.
    public struct Name: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        /// The dotted error name.
        public let rawValue: String

        /// Wraps an error name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Wraps an error name given as a literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The dotted error name.
        public var description: String { rawValue }
    }

    /// The error name, e.g. `org.freedesktop.DBus.Error.UnknownMethod`.
    public var name: Name
    /// The human-readable explanation; empty when the peer sent none.
    public var message: String

    /// Creates an error with the given name and message.
    public init(_ name: Name, _ message: String = "") {
        self.name = name
        self.message = message
    }

    /// `name: message`, or just the name when there is no message.
    public var description: String { message.isEmpty ? name.rawValue : "\(name.rawValue): \(message)" }
}

extension DBusError.Name {
    /// A generic failure.
    public static let failed: Self = "org.freedesktop.DBus.Error.Failed"
    /// Out of memory.
    public static let noMemory: Self = "org.freedesktop.DBus.Error.NoMemory"
    /// The bus does not know and cannot activate the destination name.
    public static let serviceUnknown: Self = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The name has no owner.
    public static let nameHasNoOwner: Self = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// No reply arrived: the timeout expired or the peer went away without answering.
    public static let noReply: Self = "org.freedesktop.DBus.Error.NoReply"
    /// An I/O error on the transport.
    public static let ioError: Self = "org.freedesktop.DBus.Error.IOError"
    /// A malformed D-Bus address.
    public static let badAddress: Self = "org.freedesktop.DBus.Error.BadAddress"
    /// The operation is not supported, e.g. passing file descriptors over a transport without them.
    public static let notSupported: Self = "org.freedesktop.DBus.Error.NotSupported"
    /// A resource limit was exceeded.
    public static let limitsExceeded: Self = "org.freedesktop.DBus.Error.LimitsExceeded"
    /// The security policy denied the operation.
    public static let accessDenied: Self = "org.freedesktop.DBus.Error.AccessDenied"
    /// Authentication with the bus failed.
    public static let authFailed: Self = "org.freedesktop.DBus.Error.AuthFailed"
    /// No server listens at the address.
    public static let noServer: Self = "org.freedesktop.DBus.Error.NoServer"
    /// A timeout expired.
    public static let timeout: Self = "org.freedesktop.DBus.Error.Timeout"
    /// The connection is closed or was lost.
    public static let disconnected: Self = "org.freedesktop.DBus.Error.Disconnected"
    /// The arguments do not have the expected types or values.
    public static let invalidArgs: Self = "org.freedesktop.DBus.Error.InvalidArgs"
    /// The object has no such method.
    public static let unknownMethod: Self = "org.freedesktop.DBus.Error.UnknownMethod"
    /// No object is exported at the path.
    public static let unknownObject: Self = "org.freedesktop.DBus.Error.UnknownObject"
    /// The object has no such interface.
    public static let unknownInterface: Self = "org.freedesktop.DBus.Error.UnknownInterface"
    /// The interface has no such property.
    public static let unknownProperty: Self = "org.freedesktop.DBus.Error.UnknownProperty"
    /// The property cannot be set.
    public static let propertyReadOnly: Self = "org.freedesktop.DBus.Error.PropertyReadOnly"
    /// A type signature is malformed.
    public static let invalidSignature: Self = "org.freedesktop.DBus.Error.InvalidSignature"
    /// The match rule is malformed.
    public static let matchRuleInvalid: Self = "org.freedesktop.DBus.Error.MatchRuleInvalid"
    /// RemoveMatch named a rule that was never added.
    public static let matchRuleNotFound: Self = "org.freedesktop.DBus.Error.MatchRuleNotFound"
}

extension DBusError {
    /// Shorthand for an `InvalidArgs` error, the name used for every local type or validation failure.
    static func invalidArgs(_ message: String) -> DBusError { DBusError(.invalidArgs, message) }

    /// The error thrown by operations on a closed or lost connection.
    static let connectionClosed = DBusError(.disconnected, "The D-Bus connection is closed")

    /// Runs `body` with an initialised libdbus error and converts (and frees) whatever it reports.
    ///
    /// libdbus errors own heap memory that must be released with `dbus_error_free`; funnelling every
    /// use through here keeps that balanced. `body` returns whether the libdbus call succeeded,
    /// because some calls report failure without setting the error (out of memory).
    static func checking(_ operation: String, _ body: (UnsafeMutablePointer<CDBus.DBusError>) -> Bool) throws {
        var raw = CDBus.DBusError()
        dbus_error_init(&raw)
        defer { dbus_error_free(&raw) }
        let succeeded = body(&raw)
        if dbus_error_is_set(&raw) != 0 {
            let name = raw.name.map { String(cString: $0) } ?? Name.failed.rawValue
            let message = raw.message.map { String(cString: $0) } ?? ""
            throw DBusError(Name(rawValue: name), message)
        }
        if !succeeded { throw DBusError(.noMemory, "\(operation) failed") }
    }
}
