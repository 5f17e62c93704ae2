import Dispatch
import Glibc
public import RelaySystem
import Synchronization

/// Turns SIGINT and SIGTERM into a readable descriptor (and ignores SIGHUP), so an agent's poll loop sees a stop
/// request like any other input and leaves through its normal path (removing its socket).
///
/// `Sendable`: it holds two descriptors, fixed at creation, and the dispatch sources (not
/// `Sendable` types), which sit behind a lock and are only touched to be cancelled at the end.
/// Their handlers run on a dispatch queue and touch nothing but the write end, an integer.
/// ``requestStop()`` writes to the same end, so another thread (relay-phone's, when the bus goes
/// away) can stop the loop exactly as a signal would.
public final class ShutdownSignals: Sendable {
    /// Becomes readable once a stop signal arrived (or ``requestStop()`` was called).
    public let descriptor: Int32
    private let writeEnd: Int32
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// Installs the handlers; from now on SIGINT and SIGTERM no longer end the process by
    /// themselves, and SIGHUP is ignored.
    public init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        // A socket pair rather than a pipe: Glibc's module has no pipe2, and socketpair takes the
        // close-on-exec and non-blocking flags at creation.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        try SystemError.retrying("socketpair") { socketpair(AF_UNIX, type, 0, &ends) }
        descriptor = ends[0]
        let writeEnd = ends[1]
        self.writeEnd = writeEnd
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            // Dispatch delivers a signal only once its default action is turned off.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { Self.poke(writeEnd) }
            source.resume()
            sources.append(source)
        }
        self.sources = Mutex(sources)
        // SIGHUP (a closed terminal, `systemctl reload`, `kill -HUP`) must not end an agent
        // that holds a link and a screen: it is ignored. The configuration is read once, at
        // start; a restart applies a change (Docs/CONFIGURATION.md).
        signal(SIGHUP, SIG_IGN)
    }

    /// Makes ``descriptor`` readable, as a stop signal does.
    public func requestStop() { Self.poke(writeEnd) }

    private static func poke(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    deinit {
        sources.withLock { $0.forEach { $0.cancel() } }
        close(descriptor)
        close(writeEnd)
    }
}
