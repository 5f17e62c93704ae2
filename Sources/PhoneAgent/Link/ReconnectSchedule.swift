/// How long the phone waits before each attempt to reach the wearable (PROTOCOL.md §8.9).
///
/// The wait doubles after each failed attempt, from `minimum` up to `maximum`; but for
/// `fastWindow` after a session ends it stays at most `fastCap`, because that is when the
/// wearable most likely comes back by itself (restarted, back in range) and the person is
/// waiting for it. A session that got connected starts the schedule afresh. Pure: the caller
/// says how long ago the last session ended.
public struct ReconnectSchedule: Sendable, Hashable {
    /// The first wait.
    public var minimum: Duration
    /// The longest wait, once the wearable has been gone for longer than `fastWindow`.
    public var maximum: Duration
    /// The longest wait while the last session ended at most `fastWindow` ago.
    public var fastCap: Duration
    /// How long after a session ends waits stay short.
    public var fastWindow: Duration

    private var next: Duration

    /// A schedule; `fastCap` is raised to `minimum` and lowered to `maximum` where it falls outside.
    public init(minimum: Duration, maximum: Duration, fastCap: Duration = .seconds(5), fastWindow: Duration = .seconds(120)) {
        self.minimum = minimum
        self.maximum = max(maximum, minimum)
        self.fastCap = min(max(fastCap, minimum), self.maximum)
        self.fastWindow = fastWindow
        next = minimum
    }

    /// The wait before the next attempt, given how long ago the last session ended (`nil`: no
    /// session yet since the agent started); the wait after it is longer.
    public mutating func wait(sinceLastSession: Duration?) -> Duration {
        let cap = sinceLastSession.map { $0 < fastWindow } == true ? fastCap : maximum
        let wait = min(next, cap)
        // Doubling from the wait used: past the window, waits grow on from the cap.
        next = min(wait * 2, maximum)
        return wait
    }

    /// A session got connected: the next wait is `minimum` again.
    public mutating func connected() {
        next = minimum
    }
}
