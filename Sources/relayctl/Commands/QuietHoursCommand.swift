import ArgumentParser
import Foundation
import RelayConfig
import RelayControl

/// `relayctl quiet-hours [set START END | off]`: the wearable's quiet hours, set from the phone.
struct QuietHoursCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quiet-hours",
        abstract: "Show, set or turn off the wearable's daily quiet hours, from the phone.",
        discussion: """
            During the quiet hours notifications arrive on the wearable silently, except time-sensitive \
            and critical ones (Docs/POLICY.md). Set here, they replace the [quiet_hours] of the wearable's \
            configuration; the wearable takes them over the link, now or when it is next in range.
            """)

    enum Change: String, ExpressibleByArgument, CaseIterable {
        case status, set, off
    }

    @Argument(help: "status, set or off.")
    var change: Change = .status

    @Argument(help: "With set: when they start and end (HH:MM HH:MM; an end before the start is the next morning).")
    var times: [String] = []

    @Option(help: "With set: the days a period starts on, comma-separated (mon,tue,wed,thu,fri); default: every day.")
    var weekdays: String?

    @Option(name: .customLong("time-zone"), help: "With set: the zone the times are in (Europe/Berlin); default: this machine's.")
    var timeZone: String?

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func validate() throws {
        if change != .set, !times.isEmpty || weekdays != nil || timeZone != nil { throw ValidationError("times, --weekdays and --time-zone go with set") }
        if change == .set {
            guard times.count == 2, times.allSatisfy({ ConfigRule.minutes(ofTimeOfDay: $0) != nil }) else {
                throw ValidationError("set needs a start and an end as HH:MM, such as: relayctl quiet-hours set 22:00 07:00")
            }
            if let weekdays, Self.days(weekdays) == nil {
                throw ValidationError("--weekdays \(weekdays) names a day that is not one of \(ConfigRule.weekdayNames.joined(separator: ", "))")
            }
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw ValidationError("--time-zone \(timeZone) is not a time zone: give an IANA name such as Europe/Berlin")
            }
        }
    }

    /// `mon,tue` as `Calendar`'s weekday numbers; `nil` when a name is not a day's.
    static func days(_ text: String) -> [Int]? {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let days = names.compactMap { ConfigRule.weekdayNames.firstIndex(of: $0).map { $0 + 1 } }
        return days.count == names.count && !days.isEmpty ? days : nil
    }

    func run() throws {
        let request: QuietHoursChange =
            switch change {
            case .status: .status
            case .off: .off
            case .set:
                .set(QuietHoursSpec(
                    start: ConfigRule.minutes(ofTimeOfDay: times[0]) ?? 0, end: ConfigRule.minutes(ofTimeOfDay: times[1]) ?? 0,
                    weekdays: weekdays.flatMap(Self.days) ?? Array(1...7), timeZone: timeZone ?? TimeZone.current.identifier))
            }
        let response = try control.send(PhoneRequest.quietHours(request), json: json)
        if json {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        print("quiet hours: \(response.values["quietHours"]?.description ?? "unknown")")
    }
}
