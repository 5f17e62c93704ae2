import CRelayShim
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The only way into a connection's loop thread: a locked FIFO of jobs plus an eventfd that wakes the
/// thread's `poll`.
///
/// Jobs run on the loop thread in submission order, which is what makes the ordering guarantees of
/// ``DBusConnection`` hold (a signal emitted before a reply is sent before it). Once the loop stops,
/// submission fails and the submitter reports "disconnected" itself; jobs that were accepted are
/// always run, either by the live loop or during its teardown, so every continuation is resumed.
final class LoopMailbox: Sendable {
    typealias Job = @Sendable (ConnectionLoop) -> Void

    private struct State {
        var jobs: [Job] = []
        var accepting = true
    }

    private let state = Mutex(State())
    /// Readable whenever jobs are waiting. Written only under the lock while accepting, and closed by the
    /// loop thread only after `close()` stopped accepting, so a write can never hit a closed descriptor.
    let wakeDescriptor: Int32

    init() throws {
        let descriptor = relay_dbus_eventfd()
        guard descriptor >= 0 else { throw DBusError(.ioError, "eventfd failed: errno \(errno)") }
        wakeDescriptor = descriptor
    }

    /// Queues `job` for the loop thread; returns `false` if the loop has stopped.
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        state.withLock { state in
            guard state.accepting else { return false }
            state.jobs.append(job)
            var increment: UInt64 = 1
            _ = write(wakeDescriptor, &increment, MemoryLayout<UInt64>.size)
            return true
        }
    }

    /// Takes every queued job. Loop thread only.
    func takeJobs() -> [Job] {
        state.withLock { state in
            defer { state.jobs.removeAll() }
            return state.jobs
        }
    }

    /// Resets the wake-up counter after `poll` reported it readable. Loop thread only.
    func acknowledgeWakeUp() {
        var counter: UInt64 = 0
        _ = read(wakeDescriptor, &counter, MemoryLayout<UInt64>.size)
    }

    /// Stops accepting jobs and returns those still queued, which the caller must run. Loop thread only.
    func close() -> [Job] {
        state.withLock { state in
            state.accepting = false
            defer { state.jobs.removeAll() }
            return state.jobs
        }
    }

    /// Releases the eventfd; call once, after `close()`, when the loop thread is done.
    func releaseDescriptor() {
        closeDescriptor(wakeDescriptor)
    }
}

/// `close(2)`, reachable from types that have a `close()` method of their own.
func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
