public import RelayFreedesktop

/// A signal the notification server must emit, in the order the centre returns them.
///
/// `ActivationToken` is not produced: a token comes from the compositor (xdg-activation) of the
/// screen the user acted on, and the phone's screen is locked while the wearable is in use.
/// The freedesktop cases are returned only for freedesktop notifications, ``response(_:)`` only
/// for notifications posted through Relay's own API.
public enum NotificationSignal: Sendable, Hashable {
    /// `ActionInvoked(id, action_key)`.
    case actionInvoked(id: UInt32, key: String)
    /// `NotificationReplied(id, text)` (KDE's inline reply).
    case replied(id: UInt32, text: String)
    /// `NotificationClosed(id, reason)`.
    case closed(id: UInt32, reason: CloseReason)
    /// `org.relay.Notifications1.Response(app_id, identifier, action, text)`, sent to the
    /// connection that posted the notification.
    case response(RichResponse)
}

/// What the user did with a notification from Relay's own API, addressed to the app that posted it.
public struct RichResponse: Sendable, Hashable {
    /// The posting app's id.
    public var appID: String
    /// The request's identifier.
    public var identifier: String
    /// `default` (a click on the notification), `dismiss`, or one of the category's action identifiers.
    public var action: String
    /// The text the user sent with a text-input action; empty otherwise.
    public var text: String
    /// The unique bus name of the connection that posted (or last updated, or scheduled) the
    /// request; `nil` when unknown, and then nobody is sent the response.
    public var destination: String?

    /// Creates a response.
    public init(appID: String, identifier: String, action: String, text: String = "", destination: String?) {
        self.appID = appID
        self.identifier = identifier
        self.action = action
        self.text = text
        self.destination = destination
    }
}
