public import RelayFreedesktop

/// A signal the notification server must emit, in the order the centre returns them.
///
/// `ActivationToken` is not produced: a token comes from the compositor (xdg-activation) of the
/// screen the user acted on, and the phone's screen is locked while the wearable is in use.
public enum NotificationSignal: Sendable, Hashable {
    /// `ActionInvoked(id, action_key)`.
    case actionInvoked(id: UInt32, key: String)
    /// `NotificationReplied(id, text)` (KDE's inline reply).
    case replied(id: UInt32, text: String)
    /// `NotificationClosed(id, reason)`.
    case closed(id: UInt32, reason: CloseReason)
}
