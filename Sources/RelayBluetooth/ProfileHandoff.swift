import RelayDBus
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Hands the socket of a client profile's `NewConnection` to the `ConnectProfile` call that
/// asked for it. BlueZ may call `NewConnection` before `ConnectProfile` returns, so the
/// caller says which device it expects before calling, then takes the connection.
public final class ProfileHandoff: Sendable {
    private struct Expectation {
        var arrived: ProfileConnection?
        var waiter: CheckedContinuation<ProfileConnection?, Never>?
    }

    private let expected = Mutex<[String: Expectation]>([:])

    /// An empty hand-off.
    public init() {}

    /// Announces that a connection to `device` is about to be asked for.
    public func expect(_ device: String) {
        expected.withLock { $0[device] = Expectation() }
    }

    /// Stops expecting `device` (the attempt failed); a connection that came anyway is dropped.
    public func forget(_ device: String) {
        let waiter = expected.withLock { $0.removeValue(forKey: device)?.waiter }
        waiter?.resume(returning: nil)
    }

    /// `NewConnection`'s side: passes the connection on, or throws if nobody expects it (BlueZ
    /// then closes it).
    public func deliver(_ connection: ProfileConnection) throws {
        let waiter = try expected.withLock { expected -> CheckedContinuation<ProfileConnection?, Never>? in
            guard var expectation = expected[connection.device] else {
                throw DBusError(
                    DBusError.Name(rawValue: BlueZ.ErrorName.rejected), "no connection to \(connection.device) was asked for")
            }
            if let waiter = expectation.waiter {
                expected.removeValue(forKey: connection.device)
                return waiter
            }
            expectation.arrived = connection
            expected[connection.device] = expectation
            return nil
        }
        waiter?.resume(returning: connection)
    }

    /// Waits up to `timeout` for the connection to `device` that ``expect(_:)`` announced;
    /// `nil` when it did not come in time or the task was cancelled (an agent stopping does
    /// not wait out the timeout).
    public func take(_ device: String, timeout: Duration) async -> ProfileConnection? {
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            forget(device)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A cancellation that came first has removed the expectation: nil at once.
                let ready = expected.withLock { expected -> ProfileConnection?? in
                    guard var expectation = expected[device] else { return .some(nil) }
                    if let arrived = expectation.arrived {
                        expected.removeValue(forKey: device)
                        return .some(arrived)
                    }
                    expectation.waiter = continuation
                    expected[device] = expectation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            forget(device)
        }
    }
}

extension ProfileConnection {
    /// Whether the socket is still connected: no hang-up and no end of stream from the peer.
    public var isOpen: Bool {
        var entry = pollfd(fd: descriptor.fileDescriptor, events: Self.peerHangUp, revents: 0)
        let ready = poll(&entry, 1, 0)
        guard ready >= 0 else { return false }
        return entry.revents & (Self.peerHangUp | Int16(POLLHUP | POLLERR | POLLNVAL)) == 0
    }

    /// `POLLRDHUP` (the peer shut down its side), which Glibc's module does not export.
    private static let peerHangUp: Int16 = 0x2000

    /// Ends the link for every holder of the socket (bluetoothd keeps a copy, so `close` would not).
    public func shutDown() {
        _ = Glibc.shutdown(descriptor.fileDescriptor, Int32(SHUT_RDWR))
    }
}
