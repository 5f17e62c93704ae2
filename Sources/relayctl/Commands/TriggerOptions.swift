import ArgumentParser
import RelayCore

/// When `relayctl schedule` fires: after an interval, or when the phone's wall clock matches.
struct TriggerOptions: ParsableArguments {
    @Option(name: .customLong("in"), help: ArgumentHelp("Fire SECONDS after scheduling (a time-interval trigger).", valueName: "seconds"))
    var seconds: Double?

    @Option(help: ArgumentHelp("Fire at this wall-clock time, HH:MM or HH:MM:SS, in relay-phone's time zone (a calendar trigger).", valueName: "hh:mm"))
    var at: String?

    @Option(help: "Only on this weekday: 1 (Sunday) … 7 (Saturday), or a name such as monday or mon.")
    var weekday: String?

    @Option(help: "Only on this day of the month, 1…31.")
    var day: Int?

    @Option(help: "Only in this month, 1…12.")
    var month: Int?

    @Option(help: "Only in this year.")
    var year: Int?

    @Flag(help: "Fire again and again (a repeating interval must be at least 60 s).")
    var repeats = false

    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    private var calendarGiven: Bool { at != nil || weekday != nil || day != nil || month != nil || year != nil }

    /// Whether any trigger option was given.
    var given: Bool { seconds != nil || calendarGiven }

    func validate() throws {
        if seconds != nil && calendarGiven {
            throw ValidationError("give either --in SECONDS or calendar options (--at, --weekday, --day, --month, --year), not both")
        }
        if repeats && !given { throw ValidationError("--repeats needs --in or a calendar option such as --at") }
        _ = try time()
        _ = try weekdayNumber()
    }

    /// The trigger the options describe, or `nil` when none was given. The model's own limits
    /// (a repeating interval of at least 60 s, ranges of the fields) are checked by relay-phone.
    func trigger() throws -> NotificationTrigger? {
        if let seconds { return .timeInterval(seconds: seconds, repeats: repeats) }
        guard calendarGiven else { return nil }
        let time = try time()
        return .calendar(
            CalendarComponents(
                year: year, month: month, day: day, weekday: try weekdayNumber(), hour: time?.hour, minute: time?.minute,
                second: time?.second),
            repeats: repeats)
    }

    private func time() throws -> (hour: Int, minute: Int, second: Int?)? {
        guard let at else { return nil }
        let parts = at.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(parts.count), let hour = parts[0], let minute = parts[1], parts.count == 2 || parts[2] != nil else {
            throw ValidationError("--at '\(at)' is not a time such as 08:30 or 08:30:15")
        }
        return (hour, minute, parts.count == 3 ? parts[2] : nil)
    }

    private func weekdayNumber() throws -> Int? {
        guard let weekday else { return nil }
        if let number = Int(weekday) { return number }
        let name = weekday.lowercased()
        guard name.count >= 3, let index = Self.weekdays.firstIndex(where: { $0.hasPrefix(name) }) else {
            throw ValidationError("--weekday '\(weekday)' is not 1 (Sunday) … 7 (Saturday) or a day's name such as monday")
        }
        return index + 1
    }
}
