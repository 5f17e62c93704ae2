/// The monotonic clock a connection reads its deadlines from and waits on. Injected, so that
/// tests move time by hand and a deadline fires when the test says, not when a loaded machine
/// happens to stall.
public protocol LinkClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }
    /// Returns once this clock reaches `deadline` (at once if it has); throws
    /// `CancellationError` when the task is cancelled first. Deadlines are instants, not
    /// intervals, so a timer that sleeps twice from one start cannot drift.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

/// The system's monotonic clock.
public struct SystemLinkClock: LinkClock {
    /// The system's monotonic clock.
    public init() {}

    /// `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { .now }

    /// `ContinuousClock.sleep(until:)`.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: nil)
    }
}
