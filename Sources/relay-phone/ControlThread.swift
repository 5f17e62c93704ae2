import Foundation
import Glibc
import RelayCLI
import RelayControl
import RelaySystem
import Synchronization

/// Serves the control socket until the stop request (a stop signal, or a lost bus), on a thread
/// of its own (`AgentServices.thread`), because `ControlListener` works with plain blocking
/// system calls, which must not occupy the threads Swift's tasks (and so the D-Bus handlers) run on.
enum ControlThread {
    /// Serves connections until `stop` is requested; blocks the calling thread.
    static func loop(
        listener: ControlListener, stop: StopRequest, log: AgentLogSink,
        handle: @escaping @Sendable (PhoneRequest) -> ControlResponse
    ) {
        while true {
            var polled = [stop.descriptor, listener.descriptor].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            do {
                try SystemError.retrying("poll") { poll(&polled, nfds_t(polled.count), -1) }
            } catch {
                log.error("relay-phone: \(error)")
                return
            }
            if polled[0].revents != 0 { return }
            guard polled[1].revents != 0 else { continue }
            switch listener.accept(timeoutMilliseconds: 0) {
            case .none: continue
            case .failed(let error): log.error(ControlOutcome.failed(error).description)
            case .connection(let connection): dispatch(connection, listener: listener, log: log, handle: handle)
            }
        }
    }

    /// Requests answered on threads of their own at most at once; beyond that, on this thread.
    static let maximumWorkers = 4
    private static let workers = Mutex(0)

    /// Answers a connection on a thread of its own, so that one that takes long (`pair` waits
    /// up to three minutes for the user) keeps `status` and the rest answered meanwhile.
    private static func dispatch(
        _ connection: Int32, listener: ControlListener, log: AgentLogSink,
        handle: @escaping @Sendable (PhoneRequest) -> ControlResponse
    ) {
        let started = workers.withLock { count in
            guard count < maximumWorkers else { return false }
            count += 1
            return true
        }
        guard started else {
            let outcome = listener.serve(accepted: connection, handle)
            log(outcome.description, level: outcome.logLevel)
            return
        }
        Thread.detachNewThread {
            ThreadName.setCurrent("control-request")
            let outcome = listener.serve(accepted: connection, handle)
            log(outcome.description, level: outcome.logLevel)
            workers.withLock { $0 -= 1 }
        }
    }
}
