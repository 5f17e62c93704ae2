/// Something that plays vibration patterns.
///
/// Calls must not overlap: the agent plays one alert's pattern at a time (and cancels the task
/// playing an older one when a newer alert arrives); a driver leaves the motor off when its task
/// is cancelled.
public protocol HapticDriver: Sendable {
    /// Plays a pattern to the end, or until the task is cancelled.
    func play(_ pattern: VibrationPattern) async throws
}

/// Waits between motor edges; injected so tests run patterns without real time passing.
public protocol HapticSleeper: Sendable {
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// Sleeps on the continuous clock (which keeps counting while the board is suspended).
public struct ClockSleeper: HapticSleeper {
    /// Creates a sleeper.
    public init() {}

    /// Sleeps on `ContinuousClock`.
    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}

/// Logs patterns instead of vibrating: for boards without a motor and for loopback mode.
public struct LogHapticDriver: HapticDriver {
    private let log: @Sendable (String) -> Void

    /// Creates a driver that hands one line per pattern to `log`.
    public init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// Logs the pattern's pulses, e.g. `haptic: 120ms on, 100ms off, 120ms on`.
    public func play(_ pattern: VibrationPattern) async throws {
        guard !pattern.pulses.isEmpty else { return }
        log("haptic: \(pattern)")
    }
}
