public import Foundation

/// The fire dates of a scheduled request: its trigger, when it was scheduled and the
/// time zone its calendar fields are read in. Pure: the caller passes every instant.
public struct TriggerSchedule: Sendable, Hashable {
    /// The trigger being scheduled.
    public let trigger: NotificationTrigger
    /// When the request was scheduled; time intervals count from here.
    public let scheduledAt: Date
    /// The zone in which calendar components are matched.
    public let timeZone: TimeZone

    /// Creates a schedule, rejecting triggers that cannot be scheduled by time.
    public init(trigger: NotificationTrigger, scheduledAt: Date, timeZone: TimeZone) throws(ScheduleError) {
        switch trigger {
        case .push:
            throw .notTimeBased
        case .location:
            throw .locationUnavailable
        case .timeInterval, .calendar:
            if let problem = TriggerValidation.problems(of: trigger, field: "trigger").first {
                throw .invalid(problem)
            }
        }
        self.trigger = trigger
        self.scheduledAt = scheduledAt
        self.timeZone = timeZone
    }

    /// The first fire date strictly after `date`, or `nil` when the trigger will not fire
    /// again (a one-shot trigger that has fired, a calendar date in the past).
    public func nextFireDate(after date: Date) -> Date? {
        switch trigger {
        case .timeInterval(let seconds, let repeats):
            let first = scheduledAt.addingTimeInterval(seconds)
            guard repeats else { return first > date ? first : nil }
            guard date >= first else { return first }
            let elapsed = date.timeIntervalSince(scheduledAt)
            let periods = (elapsed / seconds).rounded(.down) + 1
            return scheduledAt.addingTimeInterval(periods * seconds)
        case .calendar(let components, let repeats):
            let matcher = CalendarMatcher(components: components, clock: WallClock(timeZone: timeZone))
            let scheduled = Self.wholeSeconds(scheduledAt)
            guard let first = matcher.firstMatch(after: scheduled) else { return nil }
            let firstDate = Date(timeIntervalSince1970: TimeInterval(first))
            guard repeats else { return firstDate > date ? firstDate : nil }
            guard date >= firstDate else { return firstDate }
            return matcher.firstMatch(after: Self.wholeSeconds(date)).map {
                Date(timeIntervalSince1970: TimeInterval($0))
            }
        case .push, .location:
            return nil
        }
    }

    /// The latest fire date at or before `now`, counting from `earliest` (a fire date known to
    /// be due): when occurrences were missed (the device asleep, the clock stepped), the one
    /// that fires is the latest, so a repeating request fires once and not once per miss.
    public func latestFireDate(from earliest: Date, notAfter now: Date) -> Date {
        var latest = earliest
        while let next = nextFireDate(after: latest), next <= now { latest = next }
        return latest
    }

    /// Up to `limit` fire dates strictly after `date`, in order.
    public func fireDates(after date: Date, limit: Int) -> [Date] {
        var dates: [Date] = []
        var cursor = date
        while dates.count < limit, let next = nextFireDate(after: cursor) {
            dates.append(next)
            cursor = next
        }
        return dates
    }

    private static func wholeSeconds(_ date: Date) -> Int {
        // Held within the dates the model allows (the wire refuses others), not trapped on.
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return 0 }
        let limits = ModelLimits.secondsSince1970
        return Int(min(max(seconds, Double(limits.lowerBound)), Double(limits.upperBound)))
    }
}

/// Why a trigger cannot be scheduled.
public enum ScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A push trigger fires when a payload arrives, not at a time.
    case notTimeBased
    /// Location triggers need a location source, which Relay does not have yet.
    case locationUnavailable
    /// The trigger breaks a rule of the model.
    case invalid(ValidationError)

    /// A message for people.
    public var description: String {
        switch self {
        case .notTimeBased:
            "a push trigger fires when a push payload arrives, so it has no schedule; post the payload instead"
        case .locationUnavailable:
            "location triggers are not supported: Relay has no location source yet; use a timeInterval or calendar trigger"
        case .invalid(let problem):
            problem.description
        }
    }
}
