public import Foundation
public import RelayCore

/// Where a delivered notification came from, which decides the signals acting on it returns.
public enum NotificationOrigin: Sendable, Hashable {
    /// `org.freedesktop.Notifications.Notify`: answered with `ActionInvoked`, `NotificationReplied`
    /// and `NotificationClosed`.
    case freedesktop
    /// Relay's own API (`org.relay.Notifications1`, Docs/RICH-API.md): answered with `Response`.
    case rich(RichSource)

    /// The rich source, if it came through Relay's own API.
    public var rich: RichSource? {
        if case .rich(let source) = self { return source }
        return nil
    }
}

/// What the phone keeps of a request posted through Relay's own API, besides its content.
public struct RichSource: Sendable, Hashable {
    /// The posting app's id, such as `org.example.Social`.
    public var appID: String
    /// The request's identifier, unique per app: posting it again updates the notification in place.
    public var identifier: String
    /// The trigger it was scheduled with; `nil` when it was posted to be delivered at once.
    public var trigger: NotificationTrigger?
    /// When it was delivered (or last updated).
    public var date: Date
    /// The app's category as it was when the notification was delivered; `nil` when the app had
    /// none by that identifier. Kept with the notification so that a later `SetCategories` does not
    /// change the actions the user is already offered.
    public var category: NotificationCategory?
    /// The occurrence it shows, when a scheduled request fired it; `nil` when it was posted.
    public var occurrence: ScheduledOccurrence?

    /// Creates a source.
    public init(
        appID: String, identifier: String, trigger: NotificationTrigger?, date: Date, category: NotificationCategory?,
        occurrence: ScheduledOccurrence? = nil
    ) {
        self.appID = appID
        self.identifier = identifier
        self.trigger = trigger
        self.date = date
        self.category = category
        self.occurrence = occurrence
    }

    /// The identifiers of the category's actions that ask for text, in order.
    public var textInputActions: [String] {
        category?.actions.filter { $0.textInput != nil }.map(\.identifier) ?? []
    }

    /// Whether a dismissal is reported to the app: only with the category's `customDismissAction`
    /// option, as Apple's `UNNotificationCategoryOptions` has it.
    public var reportsDismissal: Bool {
        category?.options.contains(.customDismissAction) ?? false
    }
}

/// One firing of a scheduled request: with the app and the request's identifier, its identity on
/// both devices (Docs/PHONE.md, "Out of range").
public struct ScheduledOccurrence: Sendable, Hashable, Codable {
    /// When it fired by the schedule (not when it was delivered, which may be later).
    public var fireDate: Date
    /// Whether the wearable fired it first, by itself while apart, and alerted there: the phone
    /// took it over on reconnect, and the wearable must not alert for it again.
    public var firedOnWearable: Bool

    /// Creates an occurrence.
    public init(fireDate: Date, firedOnWearable: Bool = false) {
        self.fireDate = fireDate
        self.firedOnWearable = firedOnWearable
    }
}
