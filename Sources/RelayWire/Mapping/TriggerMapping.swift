public import RelayCore

extension Relay_V1_Trigger {
    /// The wire form of a time-based trigger; push and location triggers are never mirrored.
    public init(_ trigger: NotificationTrigger) throws(WireMappingError) {
        self.init()
        repeats = trigger.repeats
        switch trigger {
        case .timeInterval(let seconds, _):
            kind = .intervalSeconds(seconds)
        case .calendar(let components, _):
            kind = .calendar(Relay_V1_CalendarComponents.with { wire in
                if let value = components.year { wire.year = Int32(clamping: value) }
                if let value = components.month { wire.month = Int32(clamping: value) }
                if let value = components.day { wire.day = Int32(clamping: value) }
                if let value = components.weekday { wire.weekday = Int32(clamping: value) }
                if let value = components.hour { wire.hour = Int32(clamping: value) }
                if let value = components.minute { wire.minute = Int32(clamping: value) }
                if let value = components.second { wire.second = Int32(clamping: value) }
            })
        case .push, .location:
            throw .notScheduled(kind: trigger.kind)
        }
    }
}

extension NotificationTrigger {
    /// A trigger from the wire.
    public init(_ wire: Relay_V1_Trigger) throws(WireMappingError) {
        switch wire.kind {
        case .intervalSeconds(let seconds)?:
            self = .timeInterval(seconds: seconds, repeats: wire.repeats)
        case .calendar(let c)?:
            self = .calendar(
                CalendarComponents(
                    year: c.hasYear ? Int(c.year) : nil, month: c.hasMonth ? Int(c.month) : nil,
                    day: c.hasDay ? Int(c.day) : nil, weekday: c.hasWeekday ? Int(c.weekday) : nil,
                    hour: c.hasHour ? Int(c.hour) : nil, minute: c.hasMinute ? Int(c.minute) : nil,
                    second: c.hasSecond ? Int(c.second) : nil),
                repeats: wire.repeats)
        case nil:
            throw .missingField("trigger.kind")
        }
    }
}

/// A wire message that cannot become a model value.
public enum WireMappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Only time-based triggers are scheduled on the wearable.
    case notScheduled(kind: String)
    /// A required field is absent.
    case missingField(String)

    /// A message for logs.
    public var description: String {
        switch self {
        case .notScheduled(let kind): "a \(kind) trigger is not mirrored to the wearable's schedule"
        case .missingField(let field): "the message lacks \(field)"
        }
    }
}
