/// Finds the wall-clock times that match a calendar trigger's components.
struct CalendarMatcher {
    let components: CalendarComponents
    let clock: WallClock

    /// How far ahead to look before concluding that the components never match again:
    /// 400 years, one full cycle of the Gregorian calendar.
    private static let searchLimitInDays = 146_097

    /// The first instant strictly after `instant` whose wall time matches, or `nil` if none
    /// does within a Gregorian cycle (for example, a `year` in the past).
    func firstMatch(after instant: Int) -> Int? {
        let startDay = floorDivide(clock.wallTime(at: instant), 86_400)
        // Starting a day early catches a match that a gap pushed across midnight into
        // today; for the same reason a match is only final once the next day is checked.
        var day = startDay - 1
        while day < startDay + Self.searchLimitInDays {
            if let year = components.year, CivilDate(dayNumber: day).year > year { return nil }
            if let found = firstMatch(onDay: day, after: instant) {
                guard let next = firstMatch(onDay: day + 1, after: instant) else { return found }
                return min(found, next)
            }
            day += 1
        }
        return nil
    }

    /// The earliest matching instant on one local day, strictly after `instant`.
    private func firstMatch(onDay day: Int, after instant: Int) -> Int? {
        guard dayMatches(day) else { return nil }
        let times = timeCandidates()
        var best: Int?
        for hour in times.hours {
            for minute in times.minutes {
                for second in times.seconds {
                    let wall = day * 86_400 + hour * 3600 + minute * 60 + second
                    let candidate = clock.instant(showing: wall)
                    if candidate > instant, candidate < (best ?? Int.max) {
                        best = candidate
                    }
                }
            }
        }
        return best
    }

    private func dayMatches(_ day: Int) -> Bool {
        let date = CivilDate(dayNumber: day)
        let fixed = fixedDateFields()
        if let year = components.year, date.year != year { return false }
        if let month = fixed.month, date.month != month { return false }
        if let dayOfMonth = fixed.day, date.day != dayOfMonth { return false }
        if let weekday = components.weekday, CivilDate.weekday(ofDayNumber: day) != weekday { return false }
        return true
    }

    /// Field levels from coarse to fine; weekday shares the day's level.
    private var finestLevel: Int {
        let c = components
        if c.second != nil { return 5 }
        if c.minute != nil { return 4 }
        if c.hour != nil { return 3 }
        if c.day != nil || c.weekday != nil { return 2 }
        if c.month != nil { return 1 }
        return 0
    }

    /// Month and day after defaulting: below the finest given field they take their minimum.
    private func fixedDateFields() -> (month: Int?, day: Int?) {
        let level = finestLevel
        let month = components.month ?? (level < 1 ? 1 : nil)
        let day = components.day ?? (level < 2 ? 1 : nil)
        return (month, day)
    }

    private func timeCandidates() -> (hours: [Int], minutes: [Int], seconds: [Int]) {
        let level = finestLevel
        func values(_ given: Int?, level fieldLevel: Int, range: Range<Int>) -> [Int] {
            if let given { return [given] }
            return level < fieldLevel ? [range.lowerBound] : Array(range)
        }
        return (
            values(components.hour, level: 3, range: 0..<24),
            values(components.minute, level: 4, range: 0..<60),
            values(components.second, level: 5, range: 0..<60)
        )
    }
}
