import Foundation
import Glibc
import RelayCLI
import RelayControl
import RelaySystem

/// Serves the control socket on a thread of its own until a stop signal (or a stop request),
/// because `ControlListener` works with plain blocking system calls, which must not occupy the
/// threads Swift's tasks (and so the D-Bus handlers) run on.
enum ControlThread {
    /// Runs the loop on a new thread and returns when it ends.
    static func run(
        listener: ControlListener, signals: ShutdownSignals, log: @escaping @Sendable (String) -> Void,
        handle: @escaping @Sendable (ControlRequest) -> ControlResponse
    ) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                loop(listener: listener, signals: signals, log: log, handle: handle)
                done.resume()
            }
        }
    }

    private static func loop(
        listener: ControlListener, signals: ShutdownSignals, log: @Sendable (String) -> Void,
        handle: (ControlRequest) -> ControlResponse
    ) {
        while true {
            var polled = [signals.descriptor, listener.descriptor].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            do {
                try SystemError.retrying("poll") { poll(&polled, nfds_t(polled.count), -1) }
            } catch {
                log("relay-phone: \(error)")
                return
            }
            if polled[0].revents != 0 { return }
            if polled[1].revents != 0, let outcome = listener.serveOne(timeoutMilliseconds: 0, handle) {
                log(outcome.description)
            }
        }
    }
}
