/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01),
/// independent of Foundation's calendars so that the scheduler's rules are explicit.
///
/// The conversions are Howard Hinnant's `days_from_civil` / `civil_from_days`.
struct CivilDate: Hashable {
    var year: Int
    var month: Int
    var day: Int

    /// The date of a day number.
    init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day number of this date.
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Foundation's weekday numbering of a day number: 1 is Sunday, 7 is Saturday.
    static func weekday(ofDayNumber dayNumber: Int) -> Int {
        // 1970-01-01 was a Thursday (weekday 5).
        let zeroBased = (dayNumber + 4) % 7
        return (zeroBased < 0 ? zeroBased + 7 : zeroBased) + 1
    }
}

/// Floor division, which Swift's `/` is not for negative numbers.
func floorDivide(_ dividend: Int, _ divisor: Int) -> Int {
    let quotient = dividend / divisor
    return (dividend % divisor != 0 && (dividend < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
