public import RelayCore
public import RelayFreedesktop

/// A notification the phone has taken and not yet closed: what the wearable will show, and what
/// the phone needs to answer the posting app (its actions and its bus name).
public struct DeliveredNotification: Sendable, Hashable {
    /// The id `Notify` returned; it stays the same when the notification is replaced.
    public var id: UInt32
    /// The posting app's name, as it gave it.
    public var appName: String
    /// The content in Relay's model.
    public var content: NotificationContent
    /// The actions as sent: keys (returned in `ActionInvoked`) and labels, `default` included.
    public var actions: [NotifyCall.Action]
    /// The unique bus name of the connection that sent (or last replaced) it. The signals are
    /// broadcast, as the reference servers do, but the phone keeps the sender for unicast later.
    public var sender: String?
    /// `resident`: invoking an action does not close it.
    public var resident: Bool
    /// Whether it takes a text reply (KDE's `inline-reply`).
    public var acceptsReply: Bool
    /// When it expires; `nil` for never.
    public var expiresAt: ContinuousClock.Instant?

    /// Builds the notification of a decoded `Notify` call.
    public init(id: UInt32, call: NotifyCall, sender: String?, now: ContinuousClock.Instant) {
        self.id = id
        appName = call.appName
        content = FreedesktopMapping.content(of: call)
        actions = call.actions
        self.sender = sender
        resident = call.hints.resident
        acceptsReply =
            call.hints.replyPlaceholder != nil || call.actions.contains { $0.key == FreedesktopMapping.inlineReplyKey }
        expiresAt = FreedesktopMapping.expiry(milliseconds: call.expireTimeout).map { now + $0 }
    }
}
