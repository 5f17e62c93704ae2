public import Foundation
public import RelayCore

/// The wearable's four keys.
public enum UIKey: String, Hashable, Sendable, CaseIterable {
    /// Scroll up, previous item.
    case up
    /// Scroll down, next item.
    case down
    /// Open, choose, confirm.
    case select
    /// Go back one screen.
    case back
}

/// Whether the phone can be reached.
public enum LinkState: String, Hashable, Sendable {
    /// The link to the phone is up.
    case connected
    /// The phone is out of range (or off); the wearable works from its replica.
    case outOfRange
}

/// A notification as the wearable shows it: the request, the app that posted it and when it was
/// delivered.
public struct WearableNotification: Hashable, Sendable {
    /// The request, whose identifier is the notification's identity.
    public var request: NotificationRequest
    /// The posting app's display name ("Social").
    public var appName: String
    /// When it was delivered.
    public var date: Date
    /// Whether the phone can carry out its default action (a click on it): the long look offers
    /// "Open on phone".
    public var opensOnPhone: Bool

    /// Creates a notification.
    public init(request: NotificationRequest, appName: String, date: Date, opensOnPhone: Bool = false) {
        self.request = request
        self.appName = appName
        self.date = date
        self.opensOnPhone = opensOnPhone
    }

    /// The notification's identity.
    public var identifier: String { request.identifier }
    /// What it says.
    public var content: NotificationContent { request.content }
}

/// Something that happened, fed to the state machine by the agent.
public enum UIEvent: Hashable, Sendable {
    /// A notification arrived or changed; `alert` says whether it may alert (an update in place,
    /// a catch-up or a history sync never does).
    case upsert(WearableNotification, alert: Bool)
    /// A notification was removed (dismissed on the phone, withdrawn by its app).
    case remove(identifier: String)
    /// A key was pressed (or auto-repeated).
    case key(UIKey)
    /// Time passed; `now` is the current instant (the wall clock, which may be stepped or
    /// corrected), `uptime` how long the agent has run on a monotonic clock (what idle times
    /// are measured on), both read by the agent.
    case tick(now: Date, uptime: Duration = .zero)
    /// The panel's driver refused to blank it: it stays on, and is no longer blanked.
    case panelCannotBlank
    /// The link came up or went down.
    case link(LinkState)
    /// The posting apps' categories changed (actions, placeholders).
    case categories([String: NotificationCategory])
    /// The "hide previews" setting changed.
    case previewsHidden(Bool)
    /// The user's canned replies (the phone's settings), offered for every text-input action.
    case cannedReplies([String])
    /// Pairing started: show this 6-digit code for the user to compare.
    case pairingCode(String)
    /// Bluetooth bonding (BlueZ's agent) asks to confirm this 6-digit passkey.
    case bluetoothPasskey(String)
    /// Pairing ended (confirmed on both sides, rejected, or timed out).
    case pairingFinished
    /// An attachment's file is stored on the wearable as a PNG of `width` × `height` pixels;
    /// `url` is the attachment's URL in the notifications (`sha256:<hex>`). Pictures arrive
    /// after their notification, so a long look already open gains the picture when this comes.
    case attachmentStored(url: String, width: Int, height: Int)
    /// A stored attachment's file was deleted (nothing refers to it any more).
    case attachmentRemoved(url: String)
    /// The alert policy in force changed (do not disturb, quiet hours, mutes), on this device or
    /// from the phone.
    case alertPolicy(AlertPolicy)
}

/// What the agent must do after an event.
public enum UIAction: Hashable, Sendable {
    /// The screen changed: render the state and present it.
    case render
    /// Send the user's response (an action, a text reply, a dismissal) to the phone.
    case respond(NotificationResponse)
    /// Vibrate with the pattern of this interruption level.
    case haptic(InterruptionLevel)
    /// The user confirmed (`true`) or rejected (`false`) the pairing code on the screen: the
    /// answer holds for that code only, not for whatever pairing is current when it arrives.
    case confirmPairing(Bool, code: String)
    /// Power the panel up (`true`) or blank it (`false`): the screen was idle for
    /// ``UIConfiguration/blankAfter``, or something woke it (a key, an alert, a pairing code).
    case panel(awake: Bool)
    /// Turn the manual do not disturb on (until turned off) or off, as the control screen's
    /// toggle asks.
    case setDoNotDisturb(Bool)
    /// Mute the app (for `duration`) or the thread (`duration` always) of notification
    /// `identifier`: the agent stamps it with its clock and shares it with the phone.
    case mute(Mute.Scope, MuteDuration)
    /// Remove this mute.
    case unmute(Mute.Scope)
    /// Take notification `identifier` off this wearable only (Clear); the phone keeps it and
    /// hears nothing.
    case clear(identifier: String)
}
