/// When a request is delivered (Apple's `UNNotificationTrigger` family).
public enum NotificationTrigger: Sendable, Hashable {
    /// Delivered when a push payload arrives; the phone never schedules it.
    case push
    /// Delivered `seconds` after it was scheduled, and every `seconds` after that if it
    /// repeats (a repeating interval must be at least 60 s).
    case timeInterval(seconds: Double, repeats: Bool)
    /// Delivered when the local wall clock matches the components.
    case calendar(CalendarComponents, repeats: Bool)
    /// Delivered on entering or leaving a region. Representable so that requests round-trip,
    /// but the agents reject it until Relay has a location source.
    case location(LocationRegion, repeats: Bool)

    /// Whether the trigger fires more than once.
    public var repeats: Bool {
        switch self {
        case .push: false
        case .timeInterval(_, let repeats), .calendar(_, let repeats), .location(_, let repeats): repeats
        }
    }

    /// The trigger's kind as it is written in JSON.
    public var kind: String {
        switch self {
        case .push: "push"
        case .timeInterval: "timeInterval"
        case .calendar: "calendar"
        case .location: "location"
        }
    }
}

/// A circular region for a location trigger.
public struct LocationRegion: Sendable, Hashable, Codable {
    /// The region's name, unique per app.
    public var identifier: String
    /// Latitude of the centre, in degrees.
    public var latitude: Double
    /// Longitude of the centre, in degrees.
    public var longitude: Double
    /// Radius in metres.
    public var radius: Double
    /// Fire on entering the region.
    public var notifyOnEntry: Bool
    /// Fire on leaving the region.
    public var notifyOnExit: Bool

    /// Creates a region.
    public init(
        identifier: String, latitude: Double, longitude: Double, radius: Double,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = false
    ) {
        self.identifier = identifier
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }
}

extension NotificationTrigger: Codable {
    private enum CodingKeys: String, CodingKey { case kind, seconds, components, region, repeats }

    /// Decodes a trigger tagged by `kind`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        let repeats = try c.decode(Bool.self, forKey: .repeats, default: false)
        switch kind {
        case "push":
            self = .push
        case "timeInterval":
            self = .timeInterval(seconds: try c.decode(Double.self, forKey: .seconds), repeats: repeats)
        case "calendar":
            self = .calendar(try c.decode(CalendarComponents.self, forKey: .components), repeats: repeats)
        case "location":
            self = .location(try c.decode(LocationRegion.self, forKey: .region), repeats: repeats)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription: "unknown trigger kind '\(kind)'; expected push, timeInterval, calendar or location")
        }
    }

    /// Encodes the trigger with its `kind` tag.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .push:
            return
        case .timeInterval(let seconds, _):
            try c.encode(seconds, forKey: .seconds)
        case .calendar(let components, _):
            try c.encode(components, forKey: .components)
        case .location(let region, _):
            try c.encode(region, forKey: .region)
        }
        try c.encode(repeats, forKey: .repeats)
    }
}
