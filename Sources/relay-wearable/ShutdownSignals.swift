import Dispatch
import Glibc
import RelaySystem

/// Turns SIGINT and SIGTERM into a readable descriptor, so the agent's poll loop sees a stop
/// request like any other input and leaves through its normal path (removing the socket).
///
/// Not `Sendable`: the agent's loop owns it. The dispatch sources run their handlers on a
/// dispatch queue and touch nothing but the socket pair's write end, an integer.
final class ShutdownSignals {
    /// Becomes readable once a stop signal arrived.
    let descriptor: Int32
    private let writeEnd: Int32
    private var sources: [any DispatchSourceSignal] = []

    init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        // A socket pair rather than a pipe: Glibc's module has no pipe2, and socketpair takes the
        // close-on-exec and non-blocking flags at creation.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        try SystemError.retrying("socketpair") { socketpair(AF_UNIX, type, 0, &ends) }
        descriptor = ends[0]
        writeEnd = ends[1]
        for signalNumber in [SIGINT, SIGTERM] {
            // Dispatch delivers a signal only once its default action is turned off.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [writeEnd] in
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
        close(descriptor)
        close(writeEnd)
    }
}
