public import Foundation

/// A daily period in which do not disturb is on by itself, on chosen weekdays: 22:00–07:00
/// on weeknights. A period that crosses midnight belongs to the day it starts on.
public struct QuietHours: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after midnight when it starts, 0–1439.
    public var start: Int
    /// Minutes after midnight when it ends; equal to `start`: the whole day.
    public var end: Int
    /// The days it starts on, as `Calendar` numbers them (1 Sunday … 7 Saturday).
    public var weekdays: Set<Int>
    /// The zone its times are in.
    public var timeZone: TimeZone

    /// Every day unless `weekdays` says otherwise.
    public init(start: Int, end: Int, weekdays: Set<Int> = Set(1...7), timeZone: TimeZone) {
        precondition((0..<1440).contains(start) && (0..<1440).contains(end), "quiet hours are minutes after midnight")
        self.start = start
        self.end = end
        self.weekdays = weekdays
        self.timeZone = timeZone
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// Whether `date` falls in a period.
    public func contains(_ date: Date) -> Bool {
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        guard let weekday = parts.weekday, let hour = parts.hour, let minute = parts.minute else { return false }
        let now = hour * 60 + minute
        let yesterday = (weekday + 5) % 7 + 1
        if start == end { return weekdays.contains(weekday) }
        if start < end { return weekdays.contains(weekday) && (start..<end).contains(now) }
        return (now >= start && weekdays.contains(weekday)) || (now < end && weekdays.contains(yesterday))
    }

    /// When the period `date` falls in ends (the next time the clock shows `end`; for a whole
    /// day, the next midnight), for a decision to say until when; `nil` when `date` is in none.
    public func end(after date: Date) -> Date? {
        guard contains(date) else { return nil }
        guard start == end else {
            return calendar.nextDate(after: date, matching: DateComponents(hour: end / 60, minute: end % 60, second: 0), matchingPolicy: .nextTime)
        }
        // Whole days: until the first midnight that starts a day not listed (at most a week on).
        var midnight = calendar.nextDate(after: date, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime)
        for _ in 0..<7 {
            guard let current = midnight, let weekday = calendar.dateComponents([.weekday], from: current).weekday, weekdays.contains(weekday)
            else { break }
            midnight = calendar.date(byAdding: .day, value: 1, to: current)
        }
        return midnight
    }

    /// `22:00–07:00 Mon Tue Wed Thu Fri (Europe/Berlin)`, `all day every day (Europe/Berlin)`.
    public var description: String {
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let days = weekdays.count == 7 ? "every day" : (1...7).filter(weekdays.contains).map { names[$0 - 1] }.joined(separator: " ")
        let hours = start == end ? "all day" : String(format: "%02d:%02d–%02d:%02d", start / 60, start % 60, end / 60, end % 60)
        return hours + " " + days + " (\(timeZone.identifier))"
    }
}
