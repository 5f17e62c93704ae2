import CRelayShim
import RelaySystem
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a connection ended.
public enum DBusDisconnectReason: Sendable, Hashable {
    /// ``DBusConnection/close()`` was called, or the connection object was released.
    case closed
    /// The bus or peer went away, or the transport failed.
    case lost
}

/// The state a connection shares between its loop thread and every other thread.
///
/// Everything here is either immutable or behind a lock, which is why it is plainly `Sendable`.
/// It is deliberately separate from the public ``DBusConnection``: the loop thread and running method
/// handlers hold the core, not the connection, so dropping the last `DBusConnection` reference can
/// close the connection even while handlers are still running.
final class ConnectionCore: Sendable {
    let mailbox: Mailbox<LoopJob>
    /// Exported objects, written by `export`/`unexport` from any thread, read by the loop when routing.
    let objects = Mutex(ObjectRegistry())
    /// Whether the transport passes Unix file descriptors; fixed once authentication has completed.
    let canPassUnixFDs = Atomic<Bool>(false)
    /// Runs around each round of dispatching on the loop thread (`DBusConnection.aroundDispatch`).
    let dispatchWrapper = LockedCallback<() -> Void>()

    private let nextToken = Atomic<UInt64>(1)
    private let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        var reason: DBusDisconnectReason?
        var waiters: [UInt64: CheckedContinuation<DBusDisconnectReason, any Error>] = [:]
    }

    init() throws {
        mailbox = try Mailbox<LoopJob>()
    }

    /// A process-unique number identifying a call, subscription or waiter.
    func makeToken() -> UInt64 {
        nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// `nil` while connected.
    var disconnectReason: DBusDisconnectReason? {
        lifecycle.withLock { $0.reason }
    }

    /// Records the end of the connection and wakes everyone waiting for it. Loop thread, once.
    func markDisconnected(_ reason: DBusDisconnectReason) {
        let waiters = lifecycle.withLock { state in
            state.reason = reason
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume(returning: reason) }
    }

    /// Suspends until the connection has ended and its loop thread has released libdbus.
    func waitUntilDisconnected() async throws -> DBusDisconnectReason {
        let token = makeToken()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Registration and the cancellation check share the lock with `onCancel`, so a waiter is
                // either registered before `onCancel` looks for it or sees the task already cancelled.
                let outcome: Result<DBusDisconnectReason, CancellationError>? = lifecycle.withLock { state in
                    if let reason = state.reason { return .success(reason) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[token] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = lifecycle.withLock { $0.waiters.removeValue(forKey: token) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// A flag set by a task's cancellation handler and read by the loop thread when it starts the work.
///
/// Closes the race in which a task is cancelled after submitting its job but before the loop ran it:
/// the cancel job would find nothing to cancel, so the start job checks this flag instead.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    func cancel() { cancelled.store(true, ordering: .sequentiallyConsistent) }

    var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }
}

/// Starts the dedicated thread a connection's loop runs on.
enum LoopThread {
    private final class Entry: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    static func start(_ body: @escaping @Sendable () -> Void) throws {
        let entry = Unmanaged.passRetained(Entry(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { argument in
                guard let argument else { return nil }
                let entry = Unmanaged<Entry>.fromOpaque(argument).takeRetainedValue()
                ThreadName.setCurrent("relay-dbus")
                entry.body()
                return nil
            }, entry)
        guard result == 0 else {
            Unmanaged<Entry>.fromOpaque(entry).release()
            throw DBusError(.limitsExceeded, "Cannot start the D-Bus loop thread: error \(result)")
        }
    }
}

/// Work for a connection's loop thread, run there in submission order.
typealias LoopJob = @Sendable (ConnectionLoop) -> Void
