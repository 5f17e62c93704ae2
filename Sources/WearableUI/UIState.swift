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
    /// The screens below the current one, which Back returns to; the watch face is the root.
    public internal(set) var backStack: [Screen] = []
    /// What is on screen.
    public internal(set) var screen: Screen = .idle
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

    /// The buttons of a notification's long look: its category's actions, then Dismiss.
    public func buttons(of notification: WearableNotification) -> [LongLookButton] {
        let actions = categories[notification.content.categoryIdentifier]?.actions ?? []
        return actions.map { LongLookButton.action($0) } + [.dismiss]
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
    /// Removes the notification.
    case dismiss

    /// The label.
    public var title: String {
        switch self {
        case .action(let action): action.title
        case .dismiss: "Dismiss"
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
