public import Foundation
import Synchronization

/// The wearable's clock, corrected by the phone's whenever a Hello brings it: by setting the
/// system clock when `setSystemClock` is given and succeeds, and otherwise by an offset added
/// to every reading (Docs/PROTOCOL.md, "The phone's clock").
public final class PhoneFollowingClock: WearableClock {
    private let base: any WearableClock
    private let setSystemClock: (@Sendable (Date) throws -> Void)?
    private let kept = Mutex<TimeInterval>(0)

    /// A clock over `base` (the system's) that may set the system clock with `setSystemClock`
    /// (`nil`: it only keeps an offset).
    public init(base: any WearableClock = SystemClock(), setSystemClock: (@Sendable (Date) throws -> Void)? = nil) {
        self.base = base
        self.setSystemClock = setSystemClock
    }

    /// The offset added to the base clock's readings: how far it is behind the phone's.
    public var offset: TimeInterval { kept.withLock { $0 } }

    /// The base clock's time plus the offset.
    public func now() -> Date { base.now().addingTimeInterval(offset) }

    /// Sleeps until `date` by this clock. The base clock wakes at least each minute, so a new
    /// offset is taken up within one.
    public func sleep(until date: Date) async {
        await base.sleep(until: date.addingTimeInterval(-offset))
    }

    /// Corrects this clock to `phoneTime` when they differ by more than
    /// ``ClockAdjustment/tolerance``; an implausible `phoneTime` changes nothing.
    public func follow(phoneTime: Date) -> ClockAdjustment {
        guard ClockAdjustment.plausible.contains(phoneTime) else { return .phoneClockWrong(phoneTime) }
        let local = base.now()
        let difference = phoneTime.timeIntervalSince(local)
        let current = offset
        guard abs(difference - current) > ClockAdjustment.tolerance else { return .agrees(offset: current) }
        if let setSystemClock {
            do {
                try setSystemClock(phoneTime)
                kept.withLock { $0 = 0 }
                return .stepped(by: difference)
            } catch {
                kept.withLock { $0 = difference }
                return .stepRefused(offset: difference, reason: "\(error)")
            }
        }
        kept.withLock { $0 = difference }
        return .offset(difference)
    }
}
