import RelaySystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A private connection to a D-Bus message bus, built on libdbus-1.
///
/// ## Threading
///
/// Each connection owns one dedicated thread, and that thread makes every libdbus call for the
/// connection: it runs the dispatch loop (a `poll` on the socket, driven by libdbus's watches and
/// timeouts, plus an eventfd for wake-ups), marshals and sends messages, and decodes what arrives.
/// The public API is `Sendable` and never blocks: each method validates its arguments in Swift on the
/// caller's thread (so invalid input throws instead of tripping libdbus's aborting checks), then hands
/// a job to the loop thread through a locked FIFO and, if it needs an answer, suspends on a
/// continuation that the loop thread resumes. Jobs run in submission order, so a signal emitted before
/// a method returns is sent before the reply.
///
/// Method handlers of exported objects run in tasks, not on the loop thread (with Swift 6.2 or later
/// they *start* on it, in arrival order, and leave it at their first suspension point, so keep their
/// synchronous prefix short). Methods declared with `replying:` run on the loop thread itself and
/// answer through a ``DBusPendingReply`` from any thread, with no task between. Signals and
/// monitored messages are delivered through `AsyncStream`s in arrival order.
///
/// ## Lifetime
///
/// The connection ends when ``close()`` is called, when the last reference to it is released, or when
/// the bus goes away. Then pending calls fail with ``DBusError/Name/disconnected`` (or the bus's
/// `NoReply`), signal and monitor streams finish, further calls throw, and
/// ``waitUntilDisconnected()`` returns. libdbus's exit-on-disconnect is always off. Method handlers
/// that capture the connection keep it alive, so close such connections explicitly.
public final class DBusConnection: Sendable {
    /// Which bus to connect to.
    public enum Bus: Sendable, Hashable {
        /// The session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
        case session
        /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS`, else `/var/run/dbus/system_bus_socket`.
        case system
        /// The bus listening at a D-Bus address such as `unix:path=/run/user/1000/bus`.
        case address(String)
    }

    /// The unique name the bus assigned to this connection, such as `:1.42`.
    public let uniqueName: String

    let core: ConnectionCore

    private init(core: ConnectionCore, uniqueName: String) {
        self.core = core
        self.uniqueName = uniqueName
    }

    deinit {
        core.mailbox.submit { loop in loop.requestClose(draining: .zero) }
    }

    /// Connects to a bus and registers with it (the `Hello` call that assigns ``uniqueName``).
    ///
    /// - Throws: ``DBusError`` if no address is known, the bus cannot be reached, or authentication fails.
    public static func connect(to bus: Bus) async throws -> DBusConnection {
        let address = try resolveAddress(of: bus)
        let core = try ConnectionCore()
        let uniqueName: String = try await withCheckedThrowingContinuation { continuation in
            do {
                try LoopThread.start {
                    ConnectionLoop.run(core: core, address: address) { continuation.resume(with: $0) }
                }
            } catch {
                _ = core.mailbox.close()
                core.mailbox.releaseDescriptor()
                continuation.resume(throwing: error)
            }
        }
        return DBusConnection(core: core, uniqueName: uniqueName)
    }

    private static func resolveAddress(of bus: Bus) throws -> String {
        func environment(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        switch bus {
        case .address(let address):
            guard !address.isEmpty, !address.utf8.contains(0) else {
                throw DBusError(.badAddress, "Invalid D-Bus address '\(address)'")
            }
            return address
        case .system:
            return environment("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/var/run/dbus/system_bus_socket"
        case .session:
            if let address = environment("DBUS_SESSION_BUS_ADDRESS") { return address }
            if let runtime = environment("XDG_RUNTIME_DIR") { return "unix:path=\(runtime)/bus" }
            throw DBusError(.badAddress, "Neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set")
        }
    }

    // MARK: - Lifetime

    /// Whether the connection is still open.
    public var isConnected: Bool { core.disconnectReason == nil }

    /// Closes the connection and waits until the loop thread has released it.
    ///
    /// Calls that arrive from now on are answered with an error; calls whose handlers are still
    /// at work have up to `draining` to answer, and every answer is written before the
    /// connection closes: a caller whose call was carried out hears so. Safe to call more than
    /// once and after the connection was lost.
    public func close(draining: Duration = .seconds(5)) async {
        core.mailbox.submit { loop in loop.requestClose(draining: draining) }
        _ = try? await core.waitUntilDisconnected()
    }

    /// Suspends until the connection ends, returning why.
    ///
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitUntilDisconnected() async throws -> DBusDisconnectReason {
        try await core.waitUntilDisconnected()
    }

    // MARK: - Method calls

    /// Calls a method and returns its output arguments.
    ///
    /// - Parameters:
    ///   - destination: The bus name of the callee; `nil` only on peer-to-peer connections.
    ///   - path: The object path.
    ///   - interface: The interface; `nil` lets the callee pick any method of that name.
    ///   - method: The method name.
    ///   - arguments: The input arguments.
    ///   - timeout: How long to wait for the reply; `nil` waits indefinitely.
    /// - Throws: The callee's error reply as a ``DBusError``; `NoReply` on timeout; `Disconnected` if
    ///   the connection ends first; `InvalidArgs` for arguments or names that cannot be sent;
    ///   `CancellationError` if the task is cancelled (the reply, if any, is then ignored).
    public func call(
        destination: String?, path: String, interface: String?, method: String, arguments: [DBusValue] = [],
        timeout: Duration? = .seconds(25)
    ) async throws -> [DBusValue] {
        try await callReturningMessage(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments,
            timeout: timeout
        ).arguments
    }

    /// Like ``call(destination:path:interface:method:arguments:timeout:)``, and `sending` runs on
    /// the connection's thread just before libdbus writes the call to the bus: for timing a call
    /// from the moment it leaves the process, without the hop to that thread (the benchmarks).
    public func call(
        destination: String?, path: String, interface: String?, method: String, arguments: [DBusValue] = [],
        timeout: Duration? = .seconds(25), sending: @escaping @Sendable () -> Void
    ) async throws -> [DBusValue] {
        try await callReturningMessage(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments,
            timeout: timeout, sending: sending
        ).arguments
    }

    /// Like ``call(destination:path:interface:method:arguments:timeout:)``, but returns the whole reply
    /// message (its sender, for example).
    public func callReturningMessage(
        destination: String?, path: String, interface: String?, method: String, arguments: [DBusValue] = [],
        timeout: Duration? = .seconds(25)
    ) async throws -> DBusMessage {
        try await callReturningMessage(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments,
            timeout: timeout, sending: nil)
    }

    private func callReturningMessage(
        destination: String?, path: String, interface: String?, method: String, arguments: [DBusValue],
        timeout: Duration?, sending: (@Sendable () -> Void)?
    ) async throws -> DBusMessage {
        let request = try MethodCallRequest(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments)
        try checkDescriptorSupport(arguments)
        let milliseconds = Self.milliseconds(timeout)
        let token = core.makeToken()
        let cancellation = CancellationFlag()
        let core = core
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let submitted = core.mailbox.submit { loop in
                    loop.startCall(
                        token: token, request, timeoutMilliseconds: milliseconds, cancellation: cancellation, sending: sending
                    ) { continuation.resume(with: $0) }
                }
                if !submitted { continuation.resume(throwing: DBusError.connectionClosed) }
            }
        } onCancel: {
            cancellation.cancel()
            core.mailbox.submit { loop in loop.cancelCall(token: token) }
        }
    }

    /// Sends a method call without asking for a reply; the callee will not send one.
    public func callWithoutReply(
        destination: String?, path: String, interface: String?, method: String, arguments: [DBusValue] = []
    ) throws {
        var request = try MethodCallRequest(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments)
        request.noReplyExpected = true
        try checkDescriptorSupport(arguments)
        try submit { [request] loop in try? loop.send(.methodCall(request)) }
    }

    // MARK: - Signals

    /// Emits a signal from an object path. Returns once the signal is queued; it is sent in order with
    /// everything else this connection sends.
    ///
    /// - Parameter destination: A bus name for a unicast signal; `nil` broadcasts it.
    /// - Throws: `InvalidArgs` for invalid names or arguments, `Disconnected` on a closed connection.
    public func emitSignal(
        path: String, interface: String, name: String, arguments: [DBusValue] = [], destination: String? = nil
    ) throws {
        let request = try SignalRequest(
            path: path, interface: interface, member: name, destination: destination, arguments: arguments)
        try checkDescriptorSupport(arguments)
        try submit { loop in try? loop.send(.signal(request)) }
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for an exported interface.
    ///
    /// - Parameters:
    ///   - changed: New values by property name (plain values; they are wrapped in variants here).
    ///   - invalidated: Properties that changed but whose values are not included.
    public func emitPropertiesChanged(
        path: String, interface: String, changed: [String: DBusValue], invalidated: [String] = []
    ) throws {
        try DBusNames.requireInterface(interface)
        let entries = changed.sorted { $0.key < $1.key }.map {
            DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
        }
        try emitSignal(
            path: path, interface: StandardInterface.properties, name: "PropertiesChanged",
            arguments: [
                .string(interface), .dictionary(keySignature: .string, valueSignature: .variant, entries: entries),
                DBusValue(invalidated),
            ])
    }

    /// A stream of the signals that match `rule`, after the bus has accepted the rule.
    ///
    /// The rule is added to the bus (`AddMatch`) before this returns, so every matching signal sent
    /// afterwards is delivered; it is also applied locally, so the stream sees only its own matches.
    /// A well-known `sender` is resolved to its current owner, which is tracked as it changes. Ending
    /// the iteration (or dropping the stream) removes the rule; the stream finishes when the
    /// connection ends.
    ///
    /// - Throws: The bus's error (e.g. `MatchRuleInvalid`) or `InvalidArgs` for an invalid rule.
    public func signals(
        matching rule: DBusMatchRule,
        bufferingPolicy: AsyncStream<DBusMessage>.Continuation.BufferingPolicy = .unbounded
    ) async throws -> AsyncStream<DBusMessage> {
        try rule.validate()
        return try await subscribe(rule: rule, bufferingPolicy: bufferingPolicy)
    }

    /// A stream of every signal delivered to this connection (those addressed to it, and those selected
    /// by match rules added with ``addMatch(_:)`` or by other subscriptions), without adding a rule.
    public func signals(
        bufferingPolicy: AsyncStream<DBusMessage>.Continuation.BufferingPolicy = .unbounded
    ) async throws -> AsyncStream<DBusMessage> {
        try await subscribe(rule: nil, bufferingPolicy: bufferingPolicy)
    }

    private func subscribe(
        rule: DBusMatchRule?, bufferingPolicy: AsyncStream<DBusMessage>.Continuation.BufferingPolicy
    ) async throws -> AsyncStream<DBusMessage> {
        let (stream, continuation) = AsyncStream.makeStream(of: DBusMessage.self, bufferingPolicy: bufferingPolicy)
        let token = core.makeToken()
        let core = core
        continuation.onTermination = { _ in
            core.mailbox.submit { loop in loop.removeSubscription(token: token) }
        }
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let submitted = core.mailbox.submit { loop in
                loop.addSubscription(token: token, rule: rule, continuation: continuation) { done.resume(with: $0) }
            }
            if !submitted {
                continuation.finish()
                done.resume(throwing: DBusError.connectionClosed)
            }
        }
        return stream
    }

    /// Adds a match rule on the bus without a local stream; see ``signals(bufferingPolicy:)``.
    public func addMatch(_ rule: DBusMatchRule) async throws {
        try rule.validate()
        _ = try await callBus("AddMatch", [.string(rule.description)])
    }

    /// Removes a rule added with ``addMatch(_:)``.
    public func removeMatch(_ rule: DBusMatchRule) async throws {
        try rule.validate()
        _ = try await callBus("RemoveMatch", [.string(rule.description)])
    }

    // MARK: - Monitoring

    /// Turns this connection into a bus monitor (`org.freedesktop.DBus.Monitoring.BecomeMonitor`) and
    /// returns every message the bus forwards: calls, returns, errors and signals between other
    /// connections, exactly as seen on the bus.
    ///
    /// A monitor never sends anything again (the bus would disconnect it): calls and signals throw
    /// `NotSupported`, exported objects stop answering, and other signal streams finish. The bus only
    /// allows this to privileged connections or those of the bus owner's user. Close the connection
    /// to stop monitoring.
    ///
    /// - Parameter rules: Match rules selecting what to monitor; empty means everything.
    public func becomeMonitor(
        matching rules: [DBusMatchRule] = [],
        bufferingPolicy: AsyncStream<DBusMessage>.Continuation.BufferingPolicy = .unbounded
    ) async throws -> AsyncStream<DBusMessage> {
        for rule in rules { try rule.validate() }
        let (stream, continuation) = AsyncStream.makeStream(of: DBusMessage.self, bufferingPolicy: bufferingPolicy)
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let submitted = core.mailbox.submit { loop in
                loop.becomeMonitor(rules: rules, continuation: continuation) { done.resume(with: $0) }
            }
            if !submitted {
                continuation.finish()
                done.resume(throwing: DBusError.connectionClosed)
            }
        }
        return stream
    }

    // MARK: - Exported objects

    /// Exports an object at `path` implementing `interfaces`, plus the standard `Introspectable`,
    /// `Properties` and `Peer` interfaces.
    ///
    /// Calls are routed by path and interface; a call without an interface goes to the first interface
    /// with a method of that name. Unknown paths, interfaces, methods and properties, and arguments not
    /// matching the declared input signature, are answered with the standard D-Bus errors.
    ///
    /// - Throws: `InvalidArgs` for invalid names or signatures in the declarations, `ObjectPathInUse`
    ///   if an object is already exported at `path`, `Disconnected` once the connection has ended.
    public func export(_ interfaces: [DBusInterface], at path: String) throws {
        let objectPath = try DBusObjectPath(path)
        let validated = try interfaces.map(ExportedInterface.init(validating:))
        try core.objects.withLock { try $0.export(validated, at: objectPath) }
    }

    /// Runs `wrapper` around each round of dispatching on the connection's thread: the messages
    /// read from the socket at once, handled one after the other inside the closure `wrapper`
    /// is given (and must call once). For work that is cheaper done once per round than once
    /// per message, such as waking a writer that can then commit the whole round together.
    public func aroundDispatch(_ wrapper: @escaping @Sendable (() -> Void) -> Void) {
        core.dispatchWrapper.set(wrapper)
    }

    /// Removes the object at `path`; later calls to it fail with `UnknownObject`. Calls already being
    /// handled still get their replies.
    ///
    /// - Returns: Whether an object was exported there.
    @discardableResult
    public func unexport(path: String) -> Bool {
        guard let objectPath = try? DBusObjectPath(path) else { return false }
        return core.objects.withLock { $0.unexport(objectPath) }
    }

    // MARK: - Helpers

    func callBus(
        _ method: String, _ arguments: [DBusValue], interface: String = DBusMatchRule.busName
    ) async throws -> [DBusValue] {
        try await call(
            destination: DBusMatchRule.busName, path: DBusMatchRule.busPath, interface: interface, method: method,
            arguments: arguments)
    }

    private func submit(_ job: @escaping LoopJob) throws {
        guard core.mailbox.submit(job) else { throw DBusError.connectionClosed }
    }

    private func checkDescriptorSupport(_ arguments: [DBusValue]) throws {
        guard arguments.contains(where: \.containsUnixFD) else { return }
        guard core.canPassUnixFDs.load(ordering: .relaxed) else {
            throw DBusError(.notSupported, "This connection cannot pass file descriptors")
        }
    }

    /// libdbus timeouts are `int` milliseconds; `nil` becomes `DBUS_TIMEOUT_INFINITE`.
    private static func milliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return ConnectionLoop.infiniteTimeout }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return seconds < 0 ? 1 : ConnectionLoop.infiniteTimeout - 1 }
        let total = milliseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        guard !total.overflow else { return ConnectionLoop.infiniteTimeout - 1 }
        return Int32(clamping: max(1, min(total.partialValue, Int64(ConnectionLoop.infiniteTimeout - 1))))
    }
}
