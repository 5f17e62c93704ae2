public import Foundation
public import RelayCore
public import RelayWire

/// What the mirror needs to know of a notification in the centre.
public struct MirrorItem: Sendable, Hashable {
    /// The id the centre knows it by.
    public var centreID: UInt32
    /// The posting app's name.
    public var appName: String
    /// What it says.
    public var content: NotificationContent
    /// The buttons the wearable offers, as a category; `nil` for none.
    public var category: NotificationCategory?
    /// When it was delivered.
    public var deliveredAt: Date
    /// The scheduled request and the occurrence it shows, when a schedule fired it.
    public var occurrence: OccurrenceOrigin?
    /// Whether the phone can carry out its default action (a click on it), for "Open on phone".
    public var hasDefaultAction = false
    /// The attachments the phone holds in its store, as the wearable may ask for them
    /// (`MirrorCoordinator` fills them in from the store: the mirror itself does no I/O).
    public var attachments: [Relay_V1_AttachmentRef] = []

    /// Creates an item.
    public init(
        centreID: UInt32, appName: String, content: NotificationContent, category: NotificationCategory?, deliveredAt: Date,
        occurrence: OccurrenceOrigin? = nil
    ) {
        self.centreID = centreID
        self.appName = appName
        self.content = content
        self.category = category
        self.deliveredAt = deliveredAt
        self.occurrence = occurrence
    }

    /// Silent (background) notifications carry nothing to show and are never mirrored.
    public var isSilent: Bool {
        content.title.isEmpty && content.subtitle.isEmpty && content.body.isEmpty
    }
}

/// The scheduled request a notification came from, and which of its occurrences it shows.
public struct OccurrenceOrigin: Sendable, Hashable {
    /// The request's identifier (the app is the item's).
    public var identifier: String
    /// The occurrence.
    public var occurrence: ScheduledOccurrence

    /// Creates an origin.
    public init(identifier: String, occurrence: ScheduledOccurrence) {
        self.identifier = identifier
        self.occurrence = occurrence
    }
}

/// What the mirror needs to know of a scheduled request, which the wearable fires by
/// itself while the phone is out of range.
public struct ScheduleItem: Sendable, Hashable {
    /// The posting app's name.
    public var appName: String
    /// The request's identifier, unique per app.
    public var identifier: String
    /// What it will say.
    public var content: NotificationContent
    /// Its category's buttons, if any.
    public var category: NotificationCategory?
    /// A time-interval or calendar trigger.
    public var trigger: NotificationTrigger
    /// When it was scheduled (intervals count from here).
    public var scheduledAt: Date
    /// The IANA zone calendar components are matched in.
    public var timeZone: String
    /// The attachments the phone holds in its store (filled in like `MirrorItem.attachments`).
    public var attachments: [Relay_V1_AttachmentRef] = []
    /// The filter rule its content matched, if one did (filled in by the mirror's coordinator,
    /// which has the rules).
    public var rule: MatchedRule?

    /// Creates an item.
    public init(
        appName: String, identifier: String, content: NotificationContent, category: NotificationCategory?,
        trigger: NotificationTrigger, scheduledAt: Date, timeZone: String
    ) {
        self.appName = appName
        self.identifier = identifier
        self.content = content
        self.category = category
        self.trigger = trigger
        self.scheduledAt = scheduledAt
        self.timeZone = timeZone
    }

    /// The item with the filter rule its content matched.
    func matching(_ rule: MatchedRule?) -> ScheduleItem {
        var item = self
        item.rule = rule
        return item
    }

    /// The name its wire key is kept under.
    var keyName: String { AppRequests.name(appID: appName, identifier: identifier) }
}

/// How the phone mirrors, from its configuration.
public struct MirrorSettings: Sendable, Hashable {
    /// What happens to notifications while the phone is unlocked.
    public enum WhenUnlocked: String, Sendable, Hashable, CaseIterable {
        /// They stay on the phone, where the user is looking (Apple's rule).
        case none
        /// They are synced to the wearable without alerting.
        case silent
    }

    /// What happens while the phone is unlocked.
    public var whenUnlocked: WhenUnlocked
    /// The wearable shows placeholders instead of content until a notification is opened.
    public var hidePreviews: Bool
    /// The phone's language, for the wearable's plural rules.
    public var language: String
    /// The user's canned replies, offered on the wearable for every text-input action: at most
    /// ``maximumCannedReplies``, each cut on a character boundary to `ModelLimits.actionTextBytes`.
    public var cannedReplies: [String]

    /// How many canned replies the wearable is sent.
    public static let maximumCannedReplies = 16

    /// `replies` cut to what the wearable takes: blank ones and repeats left out.
    static func fitted(_ replies: [String]) -> [String] {
        var seen = Set<String>()
        return Array(
            replies.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).truncated(toUTF8Bytes: ModelLimits.actionTextBytes) }
                .filter { !$0.isEmpty && seen.insert($0).inserted }
                .prefix(maximumCannedReplies))
    }

    /// Why `replies` cannot be the user's canned replies as given, in words for the person who
    /// gave them (`relayctl replies`); `nil` when they can. Unlike the configuration's, which are
    /// fitted, these are refused rather than silently cut.
    public static func problem(with replies: [String]) -> String? {
        guard replies.count <= maximumCannedReplies else {
            return "the wearable offers at most \(maximumCannedReplies) canned replies, and these are \(replies.count): remove some first (relayctl replies remove TEXT)"
        }
        var seen = Set<String>()
        for reply in replies {
            let trimmed = reply.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return "a canned reply needs some text" }
            if trimmed.contains(where: \.isNewline) { return "a canned reply is one line: \"\(trimmed)\" has a line break" }
            if trimmed.utf8.count > ModelLimits.actionTextBytes {
                return "a canned reply is at most \(ModelLimits.actionTextBytes) bytes, and \"\(trimmed.truncated(toUTF8Bytes: 24))…\" is \(trimmed.utf8.count): shorten it"
            }
            if !seen.insert(trimmed).inserted { return "\"\(trimmed)\" is already one of the canned replies" }
        }
        return nil
    }

    /// Creates settings; the defaults are Apple's.
    public init(whenUnlocked: WhenUnlocked = .none, hidePreviews: Bool = false, language: String = "en", cannedReplies: [String] = []) {
        self.whenUnlocked = whenUnlocked
        self.hidePreviews = hidePreviews
        self.language = language
        self.cannedReplies = Self.fitted(cannedReplies)
    }
}
