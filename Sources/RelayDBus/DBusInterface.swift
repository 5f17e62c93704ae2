/// A named, typed argument of a method or signal, as shown in introspection data.
public struct DBusArgument: Sendable, Hashable {
    /// The argument name; optional, used only for introspection.
    public var name: String?
    /// The argument's type: one single complete type such as `s` or `a{sv}`. Checked on export.
    public var signature: String

    /// Creates an argument description.
    public init(_ name: String? = nil, _ signature: String) {
        self.name = name
        self.signature = signature
    }
}

/// A method of an exported interface.
public struct DBusMethod: Sendable {
    /// Handles one call. Returns the output arguments, which must match ``outputs``.
    ///
    /// A thrown ``DBusError`` becomes an error reply with its name and message; any other error becomes
    /// `org.freedesktop.DBus.Error.Failed`. The handler may suspend for as long as it likes (the caller's
    /// own timeout permitting): the reply is sent when it returns, and other calls are served meanwhile.
    public typealias Handler = @Sendable (DBusMethodCall) async throws -> [DBusValue]

    /// The method name.
    public var name: String
    /// The input arguments; a call whose signature differs is answered with `InvalidArgs`.
    public var inputs: [DBusArgument]
    /// The output arguments.
    public var outputs: [DBusArgument]
    /// The implementation.
    public var handler: Handler

    /// Handles one call on the connection's loop thread, answering through the pending reply
    /// now or later from any thread; a thrown ``DBusError`` is the reply if none was given.
    /// It must not block: other calls wait meanwhile.
    public typealias ReplyingHandler = @Sendable (DBusMethodCall, DBusPendingReply) throws -> Void

    /// The implementation of a method declared with `replying:`, which the connection calls
    /// instead of ``handler``: no task is started, and the reply leaves as soon as it is given.
    public var replying: ReplyingHandler?

    /// Declares a method.
    public init(
        _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        handler: @escaping Handler
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
    }

    /// Handles one call on the loop thread like a ``ReplyingHandler``, reading the arguments
    /// from the reader (in the declared order and types, which the call has been checked to
    /// have) rather than from the call, whose ``DBusMethodCall/arguments`` may be empty: a call
    /// that reaches it straight from the bus has no decoded values. It must not block.
    public typealias ReadingHandler = @Sendable (DBusMethodCall, inout DBusArgumentReader, DBusPendingReply) throws -> Void

    /// The implementation of a method declared with `reading:`, which the connection calls with
    /// a reader over the message itself, so the arguments are read into the handler's own types
    /// without being decoded into ``DBusValue``s first: for methods called often.
    public var reading: ReadingHandler?

    /// Declares a method that reads its own arguments and answers through a ``DBusPendingReply``.
    /// ``replying`` and ``handler`` run it with a reader over decoded values.
    public init(
        _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        reading: @escaping ReadingHandler
    ) {
        self.init(name, inputs: inputs, outputs: outputs) { call, reply in
            var arguments = DBusArgumentReader(call.arguments)
            try reading(call, &arguments, reply)
        }
        self.reading = reading
    }

    /// Declares a method that answers through a ``DBusPendingReply``: for calls whose answer
    /// waits for work on another thread, which then replies itself. ``handler`` runs it with a
    /// reply that an async caller awaits.
    public init(
        _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        replying: @escaping ReplyingHandler
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.replying = replying
        self.handler = { call in
            let outputs = try DBusSignature(outputs.map(\.signature).joined())
            return try await withCheckedThrowingContinuation { continuation in
                let reply = DBusPendingReply(outputSignature: outputs) { continuation.resume(with: $0) }
                do {
                    try replying(call, reply)
                } catch {
                    reply.fail(error as? DBusError ?? DBusError(.failed, String(describing: error)))
                }
            }
        }
    }
}

/// A signal of an exported interface, declared so that it appears in introspection data.
public struct DBusSignalDeclaration: Sendable {
    /// The signal name.
    public var name: String
    /// The signal's arguments.
    public var arguments: [DBusArgument]

    /// Declares a signal.
    public init(_ name: String, arguments: [DBusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// A property of an exported interface, served through `org.freedesktop.DBus.Properties`.
public struct DBusProperty: Sendable {
    /// How clients learn about changes, announced with the `org.freedesktop.DBus.Property.EmitsChangedSignal`
    /// annotation. The connection does not emit anything by itself; call
    /// ``DBusConnection/emitPropertiesChanged(path:interface:changed:invalidated:)`` when a value changes.
    public enum ChangeNotification: Sendable, Hashable {
        /// `PropertiesChanged` carries the new value (the D-Bus default).
        case emitsValue
        /// `PropertiesChanged` lists the property as invalidated, without its value.
        case invalidates
        /// The value never changes.
        case constant
        /// No signal is emitted; clients must poll.
        case none
    }

    /// Reads the current value, which must have type ``signature`` (not wrapped in a variant).
    public typealias Getter = @Sendable () async throws -> DBusValue
    /// Stores a new value, already checked to have type ``signature``; throw a ``DBusError`` to refuse it.
    public typealias Setter = @Sendable (DBusValue) async throws -> Void

    /// The property name.
    public var name: String
    /// The property's type, a single complete type. Checked on export.
    public var signature: String
    /// The change notification behaviour advertised in introspection.
    public var changeNotification: ChangeNotification
    /// Reads the value.
    public var getter: Getter
    /// Writes the value; `nil` makes the property read-only.
    public var setter: Setter?

    /// Declares a property; it is writable if `set` is given.
    public init(
        _ name: String, signature: String, changeNotification: ChangeNotification = .emitsValue,
        get: @escaping Getter, set: Setter? = nil
    ) {
        self.name = name
        self.signature = signature
        self.changeNotification = changeNotification
        self.getter = get
        self.setter = set
    }
}

/// An interface to export on an object path: methods, signals and properties under one name.
public struct DBusInterface: Sendable {
    /// The interface name, e.g. `org.freedesktop.Notifications`.
    public var name: String
    /// The methods.
    public var methods: [DBusMethod]
    /// The signals, for introspection.
    public var signals: [DBusSignalDeclaration]
    /// The properties.
    public var properties: [DBusProperty]

    /// Declares an interface.
    public init(
        _ name: String, methods: [DBusMethod] = [], signals: [DBusSignalDeclaration] = [],
        properties: [DBusProperty] = []
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }
}
