public import RelayLinkRuntime
import Synchronization

/// A link clock that moves only when a test advances it. Sleepers wake when time reaches their
/// deadline; a test waits for the connection's ticker to be asleep before it moves time again,
/// so each step is seen by the connection before the next one.
public final class ManualLinkClock: LinkClock {
    private struct Sleeper {
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        /// Tests waiting for somebody to sleep.
        var watchers: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state: Mutex<State>

    /// A clock that stands at the present instant until it is advanced.
    public init() { state = Mutex(State(now: .now)) }

    /// The clock's instant.
    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// Sleeps until the clock is advanced to `deadline`, or the task is cancelled.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (wake, watchers): (Bool, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                    if Task.isCancelled || deadline <= state.now { return (true, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    defer { state.watchers.removeAll() }
                    return (false, Array(state.watchers.values))
                }
                for watcher in watchers { watcher.resume() }
                if wake { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves time on by `duration`, waking every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state in
            state.now += duration
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once somebody sleeps on this clock (at once if somebody does already), or when the
    /// task is cancelled.
    public func someoneSleeps() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let asleep = state.withLock { state in
                    if !state.sleepers.isEmpty || Task.isCancelled { return true }
                    state.watchers[id] = continuation
                    return false
                }
                if asleep { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.watchers.removeValue(forKey: id) }?.resume()
        }
    }
}
