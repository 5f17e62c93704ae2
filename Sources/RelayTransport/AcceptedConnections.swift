import NIOCore
import Synchronization

/// The connections a listener has accepted but its accept loop has not taken yet.
///
/// NIO hands accepted connections to the accept loop through a buffer that it drops when the
/// loop's task is cancelled. A connection dropped there before anyone called `executeThenClose`
/// on it traps in `NIOAsyncWriter` ("Deinited NIOAsyncWriter without calling finish()"; NIO
/// issues 2637 and 2813): a stopping agent, or a test tearing one down while the other side
/// reconnects, could crash. So every accepted connection is held here from its channel's
/// initializer until the loop takes it; when the listener stops, whatever is still held is
/// finished and closed, and a connection accepted after that is closed at once.
final class AcceptedConnections: Sendable {
    private struct State: Sendable {
        var held: [ObjectIdentifier: NIOAsyncChannel<ByteBuffer, ByteBuffer>] = [:]
        var stopped = false
    }

    private let state = Mutex(State())

    /// Holds a newly accepted connection (in its channel's initializer); closes it instead
    /// when the listener has stopped.
    func accepted(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) {
        let stopped = state.withLock { state -> Bool in
            guard !state.stopped else { return true }
            state.held[ObjectIdentifier(connection.channel)] = connection
            return false
        }
        if stopped { Self.discard(connection) }
    }

    /// The accept loop took the connection: it is the loop's to close from now on.
    func taken(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) {
        _ = state.withLock { $0.held.removeValue(forKey: ObjectIdentifier(connection.channel)) }
    }

    /// The listener stopped: what was accepted and not taken is closed.
    func stop() {
        let left = state.withLock { state in
            state.stopped = true
            defer { state.held.removeAll() }
            return Array(state.held.values)
        }
        for connection in left { Self.discard(connection) }
    }

    /// `executeThenClose` finishes the writer and closes the channel; the task holds the
    /// connection until it has.
    private static func discard(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) {
        Task { try? await connection.executeThenClose { _, _ in } }
    }
}
