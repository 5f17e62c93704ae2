import Synchronization

/// When the event loop's current write began, for the heartbeat to see a write that waits
/// for ever: the loop cannot notice its own ticks while it waits.
final class WriteWatch: Sendable {
    private struct State {
        var since: ContinuousClock.Instant?
        var aborted: Duration?
    }

    private let state = Mutex(State())

    /// Runs `body` (a write) as the current write.
    func timing<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        state.withLock { $0.since = .now }
        defer { state.withLock { $0.since = nil } }
        return try await body()
    }

    /// Whether the current write has waited longer than `limit`; marks it as given up if so.
    func givesUp(after limit: Duration, now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            guard let since = state.since, now - since > limit, state.aborted == nil else { return false }
            state.aborted = now - since
            return true
        }
    }

    /// How long the write that was given up had waited; `nil` if none was.
    var gaveUp: Duration? { state.withLock { $0.aborted } }
}
