import ArgumentParser
import Foundation
import RelayControl

/// `relayctl dnd on|off|status`: the phone's manual do not disturb (Docs/POLICY.md).
struct DoNotDisturbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dnd",
        abstract: "Turn do not disturb on or off, or show it and the applications inhibiting notifications.",
        discussion: """
            While it is on, notifications arrive on the wearable silently, except time-sensitive and \
            critical ones. It holds across restarts until turned off or its time passes, and it is one for \
            both devices (turned on here, on the wearable's toggle, or with --wearable, the newest change \
            wins) unless the wearable's do_not_disturb.shared is false. Applications turn it on too, with \
            Inhibit on relay-phone's org.freedesktop.Notifications, until they call UnInhibit or leave the bus.
            """)

    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off, status
    }

    @Argument(help: "on, off or status.")
    var change: Switch = .status

    @Option(name: .customLong("for"), help: "With on: for how long (90m, 2h, 1h30m), then off by itself.")
    var duration: String?

    @Option(help: "With on: until this time of day (HH:MM, today or else tomorrow), then off by itself.")
    var until: String?

    @OptionGroup var agent: EitherAgentOptions

    func validate() throws {
        if change != .on, duration != nil || until != nil { throw ValidationError("--for and --until go with on") }
        if duration != nil, until != nil { throw ValidationError("give --for or --until, not both") }
        if let duration, Self.seconds(of: duration) == nil {
            throw ValidationError("--for \(duration) is not a duration: write 90m, 2h or 1h30m")
        }
        if let until, Self.next(until, after: Date()) == nil {
            throw ValidationError("--until \(until) is not a time of day: write HH:MM, such as 18:30")
        }
    }

    func run() throws {
        let request: DoNotDisturbChange =
            switch change {
            case .status: .status
            case .off: .off
            case .on:
                .on(until: duration.flatMap(Self.seconds(of:)).map { Date().addingTimeInterval($0) } ?? until.flatMap { Self.next($0, after: Date()) })
            }
        guard let response = try agent.send(phone: .doNotDisturb(request), wearable: .doNotDisturb(request)) else { return }
        print("do not disturb: \(response.values["doNotDisturb"]?.description ?? "unknown")")
        if case .list(let inhibitors)? = response.values["inhibitors"] {
            for inhibitor in inhibitors { print("  inhibited by \(inhibitor.description)") }
        }
    }

    /// `90m`, `2h`, `1h30m`, `45s` in seconds; `nil` when it is none of these or zero.
    static func seconds(of text: String) -> TimeInterval? {
        var total: TimeInterval = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            guard let number = Double(digits), let unit = ["h": 3600.0, "m": 60, "s": 1][String(character)] else { return nil }
            total += number * unit
            digits = ""
        }
        return digits.isEmpty && total > 0 ? total : nil
    }

    /// The next time the local clock shows `text` (`HH:MM`) after `now`.
    static func next(_ text: String, after now: Date) -> Date? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return Calendar.current.nextDate(after: now, matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime)
    }
}
