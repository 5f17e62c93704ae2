import RelaySystem
import CDBus

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The loop-thread half of a connection: owns the libdbus connection and everything that touches it.
///
/// An instance is created on the connection's dedicated thread, never leaves it, and is deliberately
/// not `Sendable`. Other threads reach it only through jobs in the mailbox (a `Mailbox` of jobs); libdbus reaches it
/// through the watch, timeout, filter and pending-call callbacks, which libdbus invokes from inside
/// the calls this thread makes. That confinement is the whole threading story: no libdbus object is
/// ever used from two threads, and none of the state below needs a lock.
final class ConnectionLoop {
    let core: ConnectionCore
    let connection: OpaquePointer

    /// libdbus's watches (readiness interests on the socket) and timeouts (pending-call deadlines).
    var watches: Set<OpaquePointer> = []
    var timeouts: [OpaquePointer: ContinuousClock.Instant] = [:]

    /// Calls awaiting replies, by libdbus pending call, and the same calls by the caller's token.
    var pendingCalls: [OpaquePointer: PendingCall] = [:]
    var pendingTokens: [UInt64: OpaquePointer] = [:]

    /// Signal streams by subscription token, and owners of the well-known names their rules mention.
    var subscriptions: [UInt64: Subscription] = [:]
    var trackedNames: [String: TrackedName] = [:]

    /// Set once `BecomeMonitor` succeeded: every message goes here and nothing is ever sent again.
    var monitor: AsyncStream<DBusMessage>.Continuation? {
        didSet { isMonitor = monitor != nil }
    }
    /// Whether ``monitor`` is set: asked for every message, where comparing the optional
    /// continuation itself would copy it each time.
    private(set) var isMonitor = false

    /// Set when the `Disconnected` message has been dispatched; the loop then exits.
    var stopped = false
    var closeRequested = false
    /// Replies owed to calls whose handlers are still at work (answered through the mailbox).
    var repliesOwed = 0
    /// Set by ``requestClose(draining:)``: until then, calls still at work may answer; new calls
    /// are refused. The connection closes once no reply is owed, or at this instant.
    var drainingUntil: ContinuousClock.Instant?
    /// `dbus_connection_close` was called; the loop waits for the `Disconnected` message.
    private var closing = false

    struct PendingCall {
        let token: UInt64
        let completion: (Result<DBusMessage, any Error>) -> Void
    }

    struct Subscription {
        let rule: DBusMatchRule?
        let continuation: AsyncStream<DBusMessage>.Continuation
    }

    struct TrackedName {
        var owner: String?
        var users: Int
    }

    private init(core: ConnectionCore, connection: OpaquePointer) {
        self.core = core
        self.connection = connection
    }

    /// The opaque pointer handed to libdbus callbacks. Unretained: the loop outlives the connection's
    /// callbacks because `tearDown()` detaches them before releasing the connection.
    var callbackContext: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ context: UnsafeMutableRawPointer?) -> ConnectionLoop? {
        context.map { Unmanaged<ConnectionLoop>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: - Lifecycle

    /// The body of the loop thread: connect, report the unique name through `ready`, then serve the
    /// connection until it ends.
    static func run(core: ConnectionCore, address: String, ready: (Result<String, any Error>) -> Void) {
        let connection: OpaquePointer
        do {
            connection = try openConnection(address)
        } catch {
            // Nobody can have submitted jobs yet: the core has not been handed out.
            _ = core.mailbox.close()
            core.mailbox.releaseDescriptor()
            core.markDisconnected(.lost)
            ready(.failure(error))
            return
        }
        let loop = ConnectionLoop(core: core, connection: connection)
        guard loop.installCallbacks() else {
            loop.stopped = true
            loop.tearDown(reason: .lost)
            ready(.failure(DBusError(.noMemory, "Cannot install the D-Bus connection callbacks")))
            return
        }
        core.canPassUnixFDs.store(
            dbus_connection_can_send_type(connection, TypeCode.unixFD) != 0, ordering: .sequentiallyConsistent)
        ready(.success(dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""))
        loop.serve()
        loop.tearDown(reason: loop.closeRequested ? .closed : .lost)
    }

    /// Opens a private connection and registers it with the bus. Blocking, but only this thread waits.
    static func openConnection(_ address: String) throws -> OpaquePointer {
        var opened: OpaquePointer?
        try DBusError.checking("dbus_connection_open_private") { error in
            opened = address.withCString { dbus_connection_open_private($0, error) }
            return opened != nil
        }
        guard let connection = opened else { throw DBusError(.noServer, "Cannot connect to \(address)") }
        // A lost bus must be an event for the application, not a call to _exit().
        dbus_connection_set_exit_on_disconnect(connection, 0)
        do {
            try DBusError.checking("dbus_bus_register") { dbus_bus_register(connection, $0) != 0 }
        } catch {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw error
        }
        return connection
    }

    private func installCallbacks() -> Bool {
        dbus_connection_set_watch_functions(
            connection, Self.addWatch, Self.removeWatch, Self.toggleWatch, callbackContext, nil) != 0
            && dbus_connection_set_timeout_functions(
                connection, Self.addTimeout, Self.removeTimeout, Self.toggleTimeout, callbackContext, nil) != 0
            && dbus_connection_add_filter(connection, Self.filter, callbackContext, nil) != 0
    }

    /// Runs jobs, dispatches incoming messages and waits for the socket or the mailbox, until the
    /// `Disconnected` message has been dispatched.
    private func serve() {
        while !stopped {
            for job in core.mailbox.take() { job(self) }
            // Before dispatching: closing queues the `Disconnected` message that ends the loop.
            closeIfDrained()
            if let wrapper = core.dispatchWrapper.current {
                wrapper { self.dispatchAll() }
            } else {
                dispatchAll()
            }
            if stopped { break }
            waitForEvents()
        }
    }

    /// Dispatches every message libdbus has read.
    private func dispatchAll() {
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    /// Releases everything, in an order that leaves no continuation unresumed and no callback dangling.
    private func tearDown(reason: DBusDisconnectReason) {
        // Jobs accepted before the mailbox closed still run; with `stopped` set they fail cleanly.
        for job in core.mailbox.close() { job(self) }
        // libdbus completes pending calls before it dispatches `Disconnected`; anything left is failed here.
        for (pending, call) in pendingCalls {
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            call.completion(.failure(DBusError.connectionClosed))
        }
        pendingCalls.removeAll()
        pendingTokens.removeAll()
        for subscription in subscriptions.values { subscription.continuation.finish() }
        subscriptions.removeAll()
        monitor?.finish()
        monitor = nil
        // Detach every callback before the last reference goes, so nothing can call into this object later.
        dbus_connection_remove_filter(connection, Self.filter, callbackContext)
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        // A private connection must be closed before its last reference is dropped.
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        watches.removeAll()
        timeouts.removeAll()
        // Handlers often capture their connection; dropping them breaks that cycle once the connection is over.
        core.objects.withLock { $0.close() }
        core.mailbox.releaseDescriptor()
        core.markDisconnected(reason)
    }

    /// Starts closing: new calls are refused at once, and calls still at work have up to
    /// `limit` to answer (a reply lost here would make its caller try again what was done). Then
    /// every queued message is written and the connection closed; the loop ends when libdbus
    /// dispatches the resulting `Disconnected` message.
    func requestClose(draining limit: Duration) {
        guard !stopped, drainingUntil == nil else { return }
        closeRequested = true
        drainingUntil = ContinuousClock.now.advanced(by: limit)
        closeIfDrained()
    }

    /// Closes a draining connection once no reply is owed or its time is up.
    private func closeIfDrained() {
        guard let deadline = drainingUntil, !closing, !stopped else { return }
        guard repliesOwed <= 0 || ContinuousClock.now >= deadline else { return }
        closing = true
        // Written before the close, which would otherwise drop what is still queued.
        dbus_connection_flush(connection)
        dbus_connection_close(connection)
    }

    // MARK: - Waiting

    /// Polls the mailbox's eventfd and libdbus's enabled watches until one is ready or the earliest
    /// libdbus timeout expires, then lets libdbus handle what happened. Never busy-waits: with nothing
    /// to do, `poll` sleeps in the kernel.
    private func waitForEvents() {
        var descriptors = [pollfd(fd: core.mailbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var polledWatches: [OpaquePointer] = []
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            descriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            polledWatches.append(watch)
        }
        let result = poll(&descriptors, nfds_t(descriptors.count), pollTimeout())
        guard result >= 0 else { return }  // EINTR: simply go round again.

        if descriptors[0].revents != 0 { core.mailbox.acknowledgeWakeUp() }
        for (index, watch) in polledWatches.enumerated() {
            let returned = descriptors[index + 1].revents
            // Handling one watch can remove another (a hang-up removes both socket watches).
            guard returned != 0, watches.contains(watch), dbus_watch_get_enabled(watch) != 0 else { continue }
            var flags: UInt32 = 0
            if returned & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
            if returned & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
            if returned & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
            if returned & Int16(POLLHUP | POLLNVAL) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
            _ = dbus_watch_handle(watch, flags)
            if flags == DBUS_WATCH_READABLE.rawValue { readOn(watch, fd: descriptors[index + 1].fd) }
        }
        fireExpiredTimeouts()
    }

    /// libdbus reads a few kilobytes each time a watch is handled: a few calls. Under load more
    /// are waiting, and reading them too (up to about 64 KB) makes them one dispatch round,
    /// handled with one hold (`DBusConnection.aroundDispatch`) rather than several.
    private func readOn(_ watch: OpaquePointer, fd: Int32) {
        for _ in 0..<15 {
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 0) == 1, waiting.revents == Int16(POLLIN),
                watches.contains(watch), dbus_watch_get_enabled(watch) != 0
            else { return }
            _ = dbus_watch_handle(watch, DBUS_WATCH_READABLE.rawValue)
        }
    }

    /// Milliseconds until the earliest enabled timeout, rounded up so it has expired on wake-up; -1 if none.
    private func pollTimeout() -> Int32 {
        let now = ContinuousClock.now
        var earliest: ContinuousClock.Instant?
        for (timeout, deadline) in timeouts where dbus_timeout_get_enabled(timeout) != 0 {
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        if let draining = drainingUntil, !closing, earliest.map({ draining < $0 }) ?? true { earliest = draining }
        guard let earliest else { return -1 }
        let remaining = now.duration(to: earliest)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    private func fireExpiredTimeouts() {
        let now = ContinuousClock.now
        let expired = timeouts.filter { $0.value <= now }.map(\.key)
        for timeout in expired {
            // An earlier handler may have removed or disabled it.
            guard timeouts[timeout] != nil, dbus_timeout_get_enabled(timeout) != 0 else { continue }
            // libdbus timeouts repeat until removed; re-arm before handling in case handling re-arms too.
            timeouts[timeout] = Self.deadline(of: timeout)
            _ = dbus_timeout_handle(timeout)
        }
    }

    private static func deadline(of timeout: OpaquePointer) -> ContinuousClock.Instant {
        ContinuousClock.now.advanced(by: .milliseconds(dbus_timeout_get_interval(timeout)))
    }

    // MARK: - libdbus callbacks (all invoked on this thread, from inside libdbus calls made here)

    private static let addWatch: DBusAddWatchFunction = { watch, context in
        guard let watch, let loop = ConnectionLoop.from(context) else { return 0 }
        loop.watches.insert(watch)
        return 1
    }

    private static let removeWatch: DBusRemoveWatchFunction = { watch, context in
        guard let watch, let loop = ConnectionLoop.from(context) else { return }
        loop.watches.remove(watch)
    }

    /// Enabled state is read afresh before every poll, so toggling needs no bookkeeping.
    private static let toggleWatch: DBusWatchToggledFunction = { _, _ in }

    private static let addTimeout: DBusAddTimeoutFunction = { timeout, context in
        guard let timeout, let loop = ConnectionLoop.from(context) else { return 0 }
        loop.timeouts[timeout] = deadline(of: timeout)
        return 1
    }

    private static let removeTimeout: DBusRemoveTimeoutFunction = { timeout, context in
        guard let timeout, let loop = ConnectionLoop.from(context) else { return }
        loop.timeouts.removeValue(forKey: timeout)
    }

    /// A re-enabled timeout starts a fresh interval.
    private static let toggleTimeout: DBusTimeoutToggledFunction = { timeout, context in
        guard let timeout, let loop = ConnectionLoop.from(context) else { return }
        loop.timeouts[timeout] = deadline(of: timeout)
    }

    private static let filter: DBusHandleMessageFunction = { _, message, context in
        guard let message, let loop = ConnectionLoop.from(context) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        loop.receive(message)
        // Everything is handled here, including calls to unknown objects (answered with an error), so
        // that libdbus never sends a default reply on a monitor connection.
        return DBUS_HANDLER_RESULT_HANDLED
    }

    static let pendingCallNotify: DBusPendingCallNotifyFunction = { pending, context in
        guard let pending, let loop = ConnectionLoop.from(context) else { return }
        loop.completePendingCall(pending)
    }
}
