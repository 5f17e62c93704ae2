/// The wall-clock fields a calendar trigger matches; `nil` fields are free.
///
/// Matching follows Foundation's `nextDate(after:matching:)`: fields finer than the
/// finest one given take their smallest value (so `hour: 8` means 08:00:00 and
/// `month: 3` means 1 March, midnight), coarser fields that are not given match anything.
/// Weekday counts as a day-level field.
public struct CalendarComponents: Sendable, Hashable, Codable {
    /// The year, 1...9999.
    public var year: Int?
    /// The month, 1...12.
    public var month: Int?
    /// The day of the month, 1...31; months without that day are skipped.
    public var day: Int?
    /// The day of the week, 1 (Sunday) ... 7 (Saturday), as Foundation numbers them.
    public var weekday: Int?
    /// The hour, 0...23.
    public var hour: Int?
    /// The minute, 0...59.
    public var minute: Int?
    /// The second, 0...59.
    public var second: Int?

    /// Creates components; give at least one.
    public init(
        year: Int? = nil, month: Int? = nil, day: Int? = nil, weekday: Int? = nil,
        hour: Int? = nil, minute: Int? = nil, second: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Whether no field is given.
    public var isEmpty: Bool {
        year == nil && month == nil && day == nil && weekday == nil && hour == nil && minute == nil
            && second == nil
    }

    /// The fields with their names and allowed ranges, for validation and messages.
    var fields: [(name: String, value: Int?, range: ClosedRange<Int>)] {
        [
            ("year", year, 1...9999), ("month", month, 1...12), ("day", day, 1...31),
            ("weekday", weekday, 1...7), ("hour", hour, 0...23), ("minute", minute, 0...59),
            ("second", second, 0...59),
        ]
    }

    /// A day and month that no year has (30 February, 31 April, ...), if these components name one.
    var impossibleDay: String? {
        guard let month, let day else { return nil }
        let longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), day > longest[month - 1] else { return nil }
        return "month \(month) has no day \(day)"
    }
}
