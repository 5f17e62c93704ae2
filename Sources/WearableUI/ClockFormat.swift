import Foundation

/// Times and dates as the screens show them, in the configured zone.
///
/// Names and patterns from the configured language's `ScreenWords`, not the machine's locale:
/// what the screen shows must not depend on where the agent happens to run, or golden pictures
/// would differ.
struct ClockFormat {
    let calendar: Calendar
    let twentyFourHour: Bool
    let words: ScreenWords

    init(_ configuration: UIConfiguration) {
        words = configuration.words
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = configuration.timeZone
        self.calendar = calendar
        twentyFourHour = configuration.twentyFourHourClock
    }

    /// "09:41", or "9:41" on a 12-hour clock.
    func time(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0, minute = parts.minute ?? 0
        let minutes = minute < 10 ? "0\(minute)" : "\(minute)"
        if twentyFourHour { return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + minutes }
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):" + minutes
    }

    /// "AM" or "PM" (in the language) on a 12-hour clock, nothing on a 24-hour one.
    func period(_ date: Date) -> String {
        guard !twentyFourHour else { return "" }
        return (calendar.component(.hour, from: date)) < 12 ? words.am : words.pm
    }

    /// "Mon 7 Jun", or the language's form of it.
    func date(_ date: Date) -> String {
        let parts = calendar.dateComponents([.weekday, .day, .month], from: date)
        return words.date(weekday: parts.weekday ?? 1, day: parts.day ?? 1, month: parts.month ?? 1)
    }
}
