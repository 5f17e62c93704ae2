import Glibc
public import RelaySystem

/// A descriptor that becomes readable once the agent is asked to stop, so that a thread blocked
/// in `poll` (the wearable's screen loop, the phone's control loop) sees a stop like any other
/// input and leaves through its normal path, removing its socket.
///
/// ``AgentServices`` requests it on SIGINT and SIGTERM (the group's graceful shutdown); any other
/// thread may request it too (relay-phone's, when the bus goes away), exactly as a signal would.
/// `Sendable`: it holds two descriptors, fixed at creation, and writing one byte is all it does.
public final class StopRequest: Sendable {
    /// Becomes readable once ``request()`` was called.
    public let descriptor: Int32
    private let writeEnd: Int32

    /// Opens the descriptor pair.
    public init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        // A socket pair rather than a pipe: Glibc's module has no pipe2, and socketpair takes the
        // close-on-exec and non-blocking flags at creation.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        try SystemError.retrying("socketpair") { socketpair(AF_UNIX, type, 0, &ends) }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    /// Makes ``descriptor`` readable; calling it again changes nothing.
    public func request() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }
}
