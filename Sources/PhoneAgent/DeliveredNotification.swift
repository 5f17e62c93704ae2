public import Foundation
public import RelayCore
public import RelayFreedesktop

/// A notification the phone has taken and not yet closed: what the wearable will show, and what
/// the phone needs to answer the posting app (its actions and its bus name).
public struct DeliveredNotification: Sendable, Hashable {
    /// The id `Notify` (or the rich API's `Post`) returned; it stays the same when the notification is replaced.
    public var id: UInt32
    /// The posting app's name, as it gave it (the app id for Relay's own API).
    public var appName: String
    /// The content in Relay's model.
    public var content: NotificationContent
    /// The actions as sent: keys (returned in `ActionInvoked`) and labels, `default` included.
    public var actions: [PostedNotification.Action]
    /// The unique bus name of the connection that sent (or last replaced) it. The signals are
    /// broadcast, as the reference servers do, but the phone keeps the sender for unicast later.
    public var sender: String?
    /// `resident`: invoking an action does not close it.
    public var resident: Bool
    /// Whether it takes a text reply (KDE's `inline-reply`).
    public var acceptsReply: Bool
    /// When it expires; `nil` for never.
    public var expiresAt: ContinuousClock.Instant?
    /// Which API it came through, and for Relay's own API the app, the request and its category.
    public var origin: NotificationOrigin

    /// Builds the notification an app posted through the freedesktop interface.
    public init(id: UInt32, posted: PostedNotification, sender: String?, now: ContinuousClock.Instant) {
        self.id = id
        appName = posted.appName
        content = FreedesktopMapping.content(of: posted)
        actions = posted.actions
        self.sender = sender
        resident = posted.hints.resident
        acceptsReply =
            posted.hints.replyPlaceholder != nil || posted.actions.contains { $0.key == FreedesktopMapping.inlineReplyKey }
        expiresAt = FreedesktopMapping.expiry(milliseconds: posted.expireTimeout, hints: posted.hints).map { now + $0 }
        origin = .freedesktop
    }

    /// Builds the notification of a request posted (or scheduled and now due) through Relay's own API.
    /// Its actions are `default` (a click on the notification) and the category's actions, keyed by
    /// their identifiers; it is not resident (acting on it removes it, as on Apple's platforms) and
    /// never expires.
    public init(
        id: UInt32, request: NotificationRequest, appID: String, category: NotificationCategory?, sender: String?,
        date: Date, occurrence: ScheduledOccurrence? = nil
    ) {
        self.id = id
        appName = appID
        content = request.content
        actions =
            [PostedNotification.Action(key: ResponseAction.defaultIdentifier, label: "Open")]
            + (category?.actions.map { PostedNotification.Action(key: $0.identifier, label: $0.title) } ?? [])
        self.sender = sender
        resident = false
        let source = RichSource(
            appID: appID, identifier: request.identifier, trigger: request.trigger, date: date, category: category,
            occurrence: occurrence)
        acceptsReply = !source.textInputActions.isEmpty
        expiresAt = nil
        origin = .rich(source)
    }

    /// The request as the app posted it, for a notification from Relay's own API.
    public var request: NotificationRequest? {
        origin.rich.map { NotificationRequest(identifier: $0.identifier, content: content, trigger: $0.trigger) }
    }
}
