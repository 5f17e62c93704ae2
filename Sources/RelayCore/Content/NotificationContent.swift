/// What a notification says and how it may interrupt: the part an app fills in.
///
/// Mirrors `UNNotificationContent`. Every field has a default, so the JSON form only
/// carries what was set.
public struct NotificationContent: Sendable, Hashable {
    /// The headline, shown in bold.
    public var title: String
    /// A second line under the title.
    public var subtitle: String
    /// The message itself.
    public var body: String
    /// The number to show on the app's badge; `nil` leaves the badge alone, 0 clears it.
    public var badge: Int?
    /// The sound (or, on the wearable, the haptic) to play; `nil` plays none.
    public var sound: NotificationSound?
    /// App-defined data delivered back with responses; never shown.
    public var userInfo: [String: JSONValue]
    /// The category whose actions and hidden-preview placeholder apply.
    public var categoryIdentifier: String
    /// Notifications with the same thread identifier are grouped together.
    public var threadIdentifier: String
    /// Images, audio or video to show with the notification.
    public var attachments: [NotificationAttachment]
    /// How urgently the notification may interrupt.
    public var interruptionLevel: InterruptionLevel
    /// Text naming what this notification adds to a coalesced summary ("from Jane").
    public var summaryArgument: String
    /// How many items this notification stands for in a coalesced summary.
    public var summaryArgumentCount: Int

    /// Creates content; every field is optional.
    public init(
        title: String = "", subtitle: String = "", body: String = "", badge: Int? = nil,
        sound: NotificationSound? = nil, userInfo: [String: JSONValue] = [:],
        categoryIdentifier: String = "", threadIdentifier: String = "",
        attachments: [NotificationAttachment] = [], interruptionLevel: InterruptionLevel = .active,
        summaryArgument: String = "", summaryArgumentCount: Int = 0
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.userInfo = userInfo
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
        self.attachments = attachments
        self.interruptionLevel = interruptionLevel
        self.summaryArgument = summaryArgument
        self.summaryArgumentCount = summaryArgumentCount
    }

    /// Whether the content shows nothing to the user: no text, sound, badge or attachment.
    /// Such a notification is a silent (background) one and is never presented or mirrored.
    public var isSilent: Bool {
        title.isEmpty && subtitle.isEmpty && body.isEmpty && badge == nil && sound == nil
            && attachments.isEmpty
    }
}

extension NotificationContent {
    /// The user info key of a freedesktop notification's `category` hint (`email.arrived`),
    /// which also travels to the wearable.
    public static let freedesktopCategoryKey = "freedesktop.category"

    /// The freedesktop `category` hint it came with, if any.
    public var freedesktopCategory: String? {
        if case .string(let category)? = userInfo[Self.freedesktopCategoryKey] { category } else { nil }
    }
}

/// How urgently a notification may interrupt (Apple's `UNNotificationInterruptionLevel`).
public enum InterruptionLevel: String, Sendable, Hashable, Codable, CaseIterable {
    /// Added to the list without lighting the screen or playing a sound.
    case passive
    /// Lights the screen and plays a sound (the default).
    case active
    /// Like `active`, and breaks through focus modes.
    case timeSensitive = "time-sensitive"
    /// Always alerts, even when the wearable is muted.
    case critical
}

/// The sound a notification plays; on the wearable it selects a haptic pattern.
public enum NotificationSound: Sendable, Hashable {
    /// The system's default sound.
    case `default`
    /// A named sound (a freedesktop sound name or a file the agent knows).
    case named(String)
}

extension NotificationSound: Codable {
    /// Decodes `"default"` or any other name.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = name == "default" ? .default : .named(name)
    }

    /// Encodes the sound as its name, `"default"` for the default sound.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .default: try container.encode("default")
        case .named(let name): try container.encode(name)
        }
    }
}

/// A file shown with a notification, such as the image in a "Thai Vacation" post.
public struct NotificationAttachment: Sendable, Hashable, Codable {
    /// The attachment's identifier, unique within the notification.
    public var identifier: String
    /// Where the file is: an absolute path or a `file://` URL on the posting device.
    public var url: String
    /// The media type, such as `image/jpeg`; empty when unknown.
    public var type: String

    /// Creates an attachment.
    public init(identifier: String, url: String, type: String = "") {
        self.identifier = identifier
        self.url = url
        self.type = type
    }

    private enum CodingKeys: String, CodingKey { case identifier, url, type }

    /// Decodes an attachment; `type` may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        url = try container.decode(String.self, forKey: .url)
        type = try container.decode(String.self, forKey: .type, default: "")
    }

    /// Encodes the attachment, leaving out an empty type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(url, forKey: .url)
        try container.encodeUnlessEmpty(type, forKey: .type)
    }
}

extension NotificationContent: Codable {
    private enum CodingKeys: String, CodingKey {
        case title, subtitle, body, badge, sound, userInfo, categoryIdentifier, threadIdentifier
        case attachments, interruptionLevel, summaryArgument, summaryArgumentCount
    }

    /// Decodes content; absent fields take their defaults and unknown fields are ignored,
    /// so newer senders stay readable.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decode(String.self, forKey: .title, default: ""),
            subtitle: try c.decode(String.self, forKey: .subtitle, default: ""),
            body: try c.decode(String.self, forKey: .body, default: ""),
            badge: try c.decodeIfPresent(Int.self, forKey: .badge),
            sound: try c.decodeIfPresent(NotificationSound.self, forKey: .sound),
            userInfo: try c.decode([String: JSONValue].self, forKey: .userInfo, default: [:]),
            categoryIdentifier: try c.decode(String.self, forKey: .categoryIdentifier, default: ""),
            threadIdentifier: try c.decode(String.self, forKey: .threadIdentifier, default: ""),
            attachments: try c.decode([NotificationAttachment].self, forKey: .attachments, default: []),
            interruptionLevel: try c.decode(InterruptionLevel.self, forKey: .interruptionLevel, default: .active),
            summaryArgument: try c.decode(String.self, forKey: .summaryArgument, default: ""),
            summaryArgumentCount: try c.decode(Int.self, forKey: .summaryArgumentCount, default: 0))
    }

    /// Encodes only the fields that differ from their defaults.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUnlessEmpty(title, forKey: .title)
        try c.encodeUnlessEmpty(subtitle, forKey: .subtitle)
        try c.encodeUnlessEmpty(body, forKey: .body)
        try c.encodeIfPresent(badge, forKey: .badge)
        try c.encodeIfPresent(sound, forKey: .sound)
        try c.encodeUnlessEmpty(userInfo, forKey: .userInfo)
        try c.encodeUnlessEmpty(categoryIdentifier, forKey: .categoryIdentifier)
        try c.encodeUnlessEmpty(threadIdentifier, forKey: .threadIdentifier)
        try c.encodeUnlessEmpty(attachments, forKey: .attachments)
        if interruptionLevel != .active { try c.encode(interruptionLevel, forKey: .interruptionLevel) }
        try c.encodeUnlessEmpty(summaryArgument, forKey: .summaryArgument)
        if summaryArgumentCount != 0 { try c.encode(summaryArgumentCount, forKey: .summaryArgumentCount) }
    }
}
