import Synchronization

/// Wakes a connection at the next instant one of its deadlines can pass, and not in between:
/// an idle link costs no wake-ups until a ping is due (issue #33), where a ticker would wake
/// its thread several times a second.
///
/// The loop arms it after each event with the session's next deadline. An arming later than
/// the one already set is kept for later: the alarm rings at the earlier instant, the loop
/// finds nothing due, and arms again — one spare wake-up when the peer was heard, instead of
/// a timer replaced for every frame. An earlier arming (the session established, an entry
/// waiting for its acknowledgement on a supervised link) replaces the one set.
final class LinkAlarm: Sendable {
    private struct State {
        /// When it goes off; `nil` when it is not set.
        var deadline: ContinuousClock.Instant?
        /// Counts the settings, so that a timer replaced while it woke does not ring.
        var generation = 0
        var timer: Task<Void, Never>?
        var stopped = false
    }

    private let state = Mutex(State())
    private let clock: any LinkClock
    private let ring: @Sendable () async -> ContinuousClock.Instant?

    /// An alarm on `clock` that calls `ring` when it goes off; `ring` returns an instant to go
    /// off again at (a write that waits is watched a tick apart), or `nil`.
    init(clock: any LinkClock, ring: @escaping @Sendable () async -> ContinuousClock.Instant?) {
        self.clock = clock
        self.ring = ring
    }

    /// Goes off at `deadline`, unless it is set to go off before.
    ///
    /// No task is made or cancelled under the lock: a timer's task takes it when it wakes.
    func arm(at deadline: ContinuousClock.Instant) {
        let setting = state.withLock { state -> (replaced: Task<Void, Never>?, generation: Int)? in
            guard !state.stopped else { return nil }
            if let armed = state.deadline, armed <= deadline { return nil }
            state.deadline = deadline
            state.generation += 1
            defer { state.timer = nil }
            return (state.timer, state.generation)
        }
        guard let setting else { return }
        setting.replaced?.cancel()
        let timer = Task { await self.wait(until: deadline, setting.generation) }
        let stale = state.withLock { state in
            guard state.generation == setting.generation, !state.stopped, state.deadline != nil else { return true }
            state.timer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    /// Never goes off again.
    func stop() {
        let timer = state.withLock { state in
            state.stopped = true
            state.deadline = nil
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    private func wait(until deadline: ContinuousClock.Instant, _ generation: Int) async {
        guard (try? await clock.sleep(until: deadline)) != nil else { return }
        let current = state.withLock { state in
            guard state.generation == generation, state.deadline != nil else { return false }
            state.deadline = nil
            state.timer = nil
            return true
        }
        guard current else { return }
        if let again = await ring() { arm(at: again) }
    }
}
