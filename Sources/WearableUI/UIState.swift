public import Foundation
public import RelayCore

/// Everything the wearable's screens show, as a value: the replica's notifications, the
/// settings, the time and the navigation.
public struct UIState: Hashable, Sendable {
    /// Delivered notifications, newest first.
    public internal(set) var notifications: [WearableNotification] = []
    /// Notifications not yet opened in a long look.
    public internal(set) var unread: Set<String> = []
    /// The posting apps' categories by identifier.
    public internal(set) var categories: [String: NotificationCategory] = [:]
    /// The current instant, as last reported by a tick.
    public internal(set) var now: Date
    /// Whether the phone is reachable.
    public internal(set) var link: LinkState = .outOfRange
    /// Whether notifications show placeholders instead of their content until opened.
    public internal(set) var previewsHidden = false
    /// The user's canned replies, offered after an app's own suggestions.
    public internal(set) var cannedReplies: [String] = []
    /// The screens below the current one, which Back returns to; the watch face is the root.
    public internal(set) var backStack: [Screen] = []
    /// What is on screen.
    public internal(set) var screen: Screen = .idle
    /// How many earlier notifications of its thread the short look on screen stands for (a
    /// burst: "and 2 more").
    public internal(set) var shortLookMore = 0
    /// The pictures stored on the wearable, by attachment URL, with their sizes: what the long
    /// look lays out. The pixels stay in the files until the renderer asks for them.
    public internal(set) var storedImages: [String: AttachmentImage] = [:]
    /// Whether the panel is powered (not blanked for idleness).
    public internal(set) var panelAwake = true
    /// Whether blanking was given up because the driver refused it.
    public internal(set) var panelCannotBlank = false
    /// The agent's uptime at the last tick (a monotonic clock).
    public internal(set) var uptime: Duration = .zero
    /// The uptime of the last key press, alert or pairing code: the idle time counts from here.
    public internal(set) var lastActivity: Duration = .zero
    /// The alert policy in force (the configuration's with the wishes shared with the phone):
    /// what the watch face and the control screen show of do not disturb and the mutes.
    public internal(set) var alertPolicy = AlertPolicy()

    /// Creates the state at the watch face with no notifications.
    public init(now: Date, link: LinkState = .outOfRange, categories: [String: NotificationCategory] = [:], previewsHidden: Bool = false) {
        self.now = now
        self.link = link
        self.categories = categories
        self.previewsHidden = previewsHidden
    }

    /// The notification with an identifier.
    public func notification(_ identifier: String) -> WearableNotification? {
        notifications.first { $0.identifier == identifier }
    }

    /// The buttons of a notification's long look: its category's actions, then "Open on phone"
    /// when the phone can carry out its default action, then Clear, Dismiss and Mute.
    public func buttons(of notification: WearableNotification) -> [LongLookButton] {
        let actions = categories[notification.content.categoryIdentifier]?.actions ?? []
        return actions.map { LongLookButton.action($0) } + (notification.opensOnPhone ? [.openOnPhone] : []) + [.clear, .dismiss, .mute]
    }

    /// The replies offered for a text-input action of notification `identifier`: the app's own
    /// suggestions, then the user's canned replies it did not already suggest.
    public func replies(_ identifier: String, action: String) -> [String] {
        guard let notification = notification(identifier) else { return [] }
        let suggested = categories[notification.content.categoryIdentifier]?.action(withIdentifier: action)?.textInput?.suggestedReplies ?? []
        return suggested + cannedReplies.filter { !suggested.contains($0) }
    }

    /// Do not disturb as it stands now, from whichever source.
    public var doNotDisturb: DoNotDisturb? { alertPolicy.doNotDisturb(at: now) }

    /// The control screen's rows: do not disturb, then each mute in force (Select removes it).
    public var controlRows: [ControlRow] {
        [.doNotDisturb(doNotDisturb)] + alertPolicy.mutes.filter { $0.isInForce(at: now) }.map(ControlRow.unmute)
    }

    /// What a notification's mute menu mutes: its app, or its thread in the app.
    public func muteScope(of notification: WearableNotification, thread: Bool) -> Mute.Scope {
        thread ? .thread(app: notification.appName, thread: notification.content.threadIdentifier) : .app(notification.appName)
    }

    /// The mute menu's choices for a notification: the app for an hour, today or always, and its
    /// thread when it has one.
    public func muteChoices(of notification: WearableNotification) -> [MuteChoice] {
        MuteDuration.allCases.map { MuteChoice.app($0) } + (notification.content.threadIdentifier.isEmpty ? [] : [.thread])
    }

    /// The notifications grouped by thread, in the order of each group's newest notification;
    /// notifications without a thread stand alone.
    public var groups: [NotificationGroup] {
        var groups: [NotificationGroup] = []
        var index: [String: Int] = [:]
        for notification in notifications {
            let thread = notification.content.threadIdentifier
            if !thread.isEmpty, let position = index[thread] {
                groups[position].notifications.append(notification)
            } else {
                if !thread.isEmpty { index[thread] = groups.count }
                groups.append(NotificationGroup(thread: thread, notifications: [notification]))
            }
        }
        return groups
    }
}

/// A button on the long look.
public enum LongLookButton: Hashable, Sendable {
    /// One of the category's actions.
    case action(NotificationAction)
    /// The notification's default action, carried out on the phone (a click on it there).
    case openOnPhone
    /// Takes the notification off this wearable only; the phone keeps it.
    case clear
    /// Removes the notification everywhere (dismissed on the phone too).
    case dismiss
    /// Opens the mute menu: the app for a while, or the thread.
    case mute

    /// The label.
    public var title: String {
        switch self {
        case .action(let action): action.title
        case .openOnPhone: "Open on phone"
        case .clear: "Clear"
        case .dismiss: "Dismiss"
        case .mute: "Mute…"
        }
    }
}

/// A choice of the mute menu.
public enum MuteChoice: Hashable, Sendable {
    /// The app, for a while or always.
    case app(MuteDuration)
    /// The notification's thread, until unmuted.
    case thread

    /// "Mute app: 1 hour", "Mute this thread".
    public var title: String {
        switch self {
        case .app(let duration): "Mute app: \(duration.title)"
        case .thread: "Mute this thread"
        }
    }
}

/// A row of the control screen (reached by Up from the watch face).
public enum ControlRow: Hashable, Sendable {
    /// Do not disturb and how it stands (`nil`: off); Select turns the manual one on or off.
    case doNotDisturb(DoNotDisturb?)
    /// A mute in force; Select removes it.
    case unmute(Mute)

    /// "Do not disturb: on", "Unmute Mail".
    public var title: String {
        switch self {
        case .doNotDisturb(nil): "Do not disturb: off"
        case .doNotDisturb(.some(let dnd)): dnd.source == .quietHours ? "Quiet hours: on" : "Do not disturb: on"
        case .unmute(let mute):
            switch mute.scope {
            case .app(let app): "Unmute \(app)"
            case .thread(let app, _): "Unmute a thread of \(app)"
            }
        }
    }
}

/// Notifications of one thread (or one notification without a thread), newest first.
public struct NotificationGroup: Hashable, Sendable {
    /// The thread identifier; empty for a notification without a thread.
    public var thread: String
    /// The notifications, newest first; never empty.
    public var notifications: [WearableNotification]
}
