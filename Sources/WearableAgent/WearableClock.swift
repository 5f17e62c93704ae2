public import Foundation

/// The wall clock the wearable fires the phone's scheduled requests by. Injected, so that tests
/// can move time (and step it) without waiting.
public protocol WearableClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Returns at `date` or soon after, or early when the task is cancelled.
    func sleep(until date: Date) async
    /// The phone's clock read `phoneTime` just now (its Hello): a clock that follows the phone
    /// corrects itself and says how; others answer ``ClockAdjustment/notFollowed``.
    func follow(phoneTime: Date) -> ClockAdjustment
}

extension WearableClock {
    /// Does not follow the phone.
    public func follow(phoneTime: Date) -> ClockAdjustment { .notFollowed }
}

/// The system's clock. A sleep is measured on the monotonic clock and at most a minute long, so a
/// step of the wall clock (NTP, a time set by hand) is noticed within a minute.
public struct SystemClock: WearableClock {
    /// The longest single sleep.
    static let longestSleep: TimeInterval = 60

    /// The system's clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// Sleeps until `date`, or a minute, whichever comes first.
    public func sleep(until date: Date) async {
        let seconds = min(max(date.timeIntervalSinceNow, 0), Self.longestSleep)
        try? await Task.sleep(for: .seconds(seconds))
    }
}
