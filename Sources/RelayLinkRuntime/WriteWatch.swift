import Synchronization

/// Whether the event loop's current write is getting anywhere, for the heartbeat to give up on
/// a peer that takes nothing in: the loop sees no tick while it waits in a write.
///
/// Progress is what the connection still holds to send going down, not the time spent in the
/// write: on a slow radio link one write may rightly wait longer than the dead-link timeout
/// while a window of entries drains a few kilobytes a second.
final class WriteWatch: Sendable {
    private struct State {
        /// When the current write began; `nil` between writes.
        var since: ContinuousClock.Instant?
        /// The last time the bytes waiting to be sent went down.
        var moved: ContinuousClock.Instant?
        var lastWaiting: Int?
        var gaveUp: Duration?
    }

    private let state = Mutex(State())

    /// Runs `body` (a write) as the current write, which begins at `start`.
    func timing<Result>(from start: ContinuousClock.Instant, _ body: () async throws -> Result) async rethrows -> Result {
        state.withLock { state in
            state.since = start
            state.moved = nil
            state.lastWaiting = nil
        }
        defer { state.withLock { $0.since = nil } }
        return try await body()
    }

    /// Whether a write is under way, so that it is worth asking how much is waiting.
    var isWriting: Bool { state.withLock { $0.since != nil } }

    /// Looks at the current write with the bytes the connection still holds to send (`nil`:
    /// not known, and then nothing is given up): whether nothing has moved for longer than
    /// `limit`. Marks the write as given up if so.
    func givesUp(after limit: Duration, waiting: Int?, now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            defer { state.lastWaiting = waiting }
            guard let waiting, let since = state.since, state.gaveUp == nil else { return false }
            // A write's first look is where its count starts: whether bytes went before it is not
            // known, so it gives no verdict (the alarm looks first a tick after a write into a
            // full channel begins; late only for one that waits unexpectedly).
            guard let last = state.lastWaiting else { return false }
            if waiting < last { state.moved = now }
            let stillSince = max(since, state.moved ?? since)
            guard now - stillSince > limit else { return false }
            state.gaveUp = now - stillSince
            return true
        }
    }

    /// How long the write that was given up on had not moved; `nil` if none was.
    var gaveUp: Duration? { state.withLock { $0.gaveUp } }
}
