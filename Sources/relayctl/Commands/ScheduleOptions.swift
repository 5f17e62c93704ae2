import ArgumentParser
import Foundation
import RelayCore

/// The options that say from when, where and how far ahead to list fire dates.
struct ScheduleOptions: ParsableArguments {
    @Option(name: .customLong("time-zone"), help: "Time zone for calendar triggers (an IANA name such as Europe/Berlin); default: this machine's.")
    var timeZoneName: String?

    @Option(help: "List fire dates after this instant (ISO 8601, e.g. 2027-03-27T12:00:00Z); default: now.")
    var from: String?

    @Option(help: "How many fire dates to list per scheduled request.")
    var count: Int = 3

    func validate() throws {
        guard count >= 0 else { throw ValidationError("--count must be 0 or more") }
        if let timeZoneName, TimeZone(identifier: timeZoneName) == nil {
            throw ValidationError("unknown time zone '\(timeZoneName)'; use an IANA name such as Europe/Berlin (is tzdata installed?)")
        }
        if let from, (try? Date(from, strategy: .iso8601)) == nil {
            throw ValidationError("--from '\(from)' is not an ISO 8601 instant such as 2027-03-27T12:00:00Z")
        }
    }

    /// The zone calendar triggers are matched in.
    var timeZone: TimeZone {
        timeZoneName.flatMap(TimeZone.init(identifier:)) ?? .current
    }

    /// The instant to list fire dates after; the only place relayctl reads the clock.
    var start: Date {
        from.flatMap { try? Date($0, strategy: .iso8601) } ?? Date()
    }

    /// A fire date as local ISO 8601 time with its offset, so DST shifts are visible.
    func format(_ date: Date) -> String {
        Self.format(date, in: timeZone)
    }

    /// A date as ISO 8601 time in `zone` with its offset (`relayctl pending` and `schedule` use this machine's zone).
    static func format(_ date: Date, in zone: TimeZone) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: zone))
    }

    /// The next fire dates of a request, or why it has none.
    func describeSchedule(of request: NotificationRequest) -> String {
        guard let trigger = request.trigger else { return "delivered at once" }
        do {
            let schedule = try TriggerSchedule(trigger: trigger, scheduledAt: start, timeZone: timeZone)
            let dates = schedule.fireDates(after: start, limit: count)
            if dates.isEmpty { return "\(TriggerText.describe(trigger)); never fires again" }
            return "\(TriggerText.describe(trigger)); next: " + dates.map(format).joined(separator: ", ")
        } catch {
            return "\(TriggerText.describe(trigger)); \(error)"
        }
    }
}

/// Short human descriptions of triggers.
enum TriggerText {
    static func describe(_ trigger: NotificationTrigger) -> String {
        switch trigger {
        case .push:
            return "on push"
        case .timeInterval(let seconds, let repeats):
            return repeats ? "every \(format(seconds)) s" : "once, \(format(seconds)) s after scheduling"
        case .calendar(let components, let repeats):
            return (repeats ? "whenever " : "once at ") + describe(components)
        case .location(let region, _):
            return "on entering or leaving '\(region.identifier)'"
        }
    }

    private static func describe(_ c: CalendarComponents) -> String {
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        var parts: [String] = []
        if let year = c.year { parts.append("year \(year)") }
        if let month = c.month { parts.append("month \(month)") }
        if let day = c.day { parts.append("day \(day)") }
        if let weekday = c.weekday, (1...7).contains(weekday) { parts.append(weekdays[weekday - 1]) }
        switch (c.hour, c.minute, c.second) {
        case (let hour?, let minute, let second):
            parts.append(String(format: "%02d:%02d", hour, minute ?? 0) + (second.map { String(format: ":%02d", $0) } ?? ""))
        case (nil, let minute?, let second):
            parts.append("every hour at :" + String(format: "%02d", minute) + (second.map { String(format: ":%02d", $0) } ?? ""))
        case (nil, nil, let second?):
            parts.append("every minute at second \(second)")
        case (nil, nil, nil):
            break
        }
        return parts.joined(separator: " ")
    }

    private static func format(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }
}
