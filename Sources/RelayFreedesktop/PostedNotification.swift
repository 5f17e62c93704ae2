public import RelayCore

/// A notification as an app posted it through `org.freedesktop.Notifications.Notify`, in its
/// decoded form: strings, actions and the hints Relay reads, no bus types. `NotifyCall`
/// (RelayFreedesktopDBus) reads one from the bus; the phone's centre takes it from there.
public struct PostedNotification: Sendable, Hashable {
    /// An action button: its key (returned in `ActionInvoked`) and its label.
    public struct Action: Sendable, Hashable {
        /// The key; `default` is the notification's default action, not a button.
        public var key: String
        /// The label shown.
        public var label: String

        /// Creates an action.
        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// The sending app's name, for display.
    public var appName: String
    /// The id of a notification to replace, or 0.
    public var replacesID: UInt32
    /// The app's icon name or path.
    public var appIcon: String
    /// The summary: the title.
    public var summary: String
    /// The body as sent (may contain markup).
    public var body: String
    /// The actions, in order.
    public var actions: [Action]
    /// The hints Relay reads.
    public var hints: NotificationHints
    /// Milliseconds until it expires: -1 for the server's default, 0 for never.
    public var expireTimeout: Int32
    /// What was clamped or ignored, for the log.
    public var notes: [String]
    /// The images as the server has taken them in (copied into its store, named by content);
    /// `nil` until then, when `image-path` is used as it is.
    public var attachments: [NotificationAttachment]?

    /// The most actions kept: the click (`default`) and as many buttons as the wearable shows.
    public static let maximumActions = ModelLimits.actionsPerCategory + 1

    /// The actions kept of those an app sent: the click (`default`) wherever it stands, and the
    /// first ``ModelLimits/actionsPerCategory`` others, the buttons the wearable shows. So every
    /// button the phone keeps can be chosen on the wrist, and one it could not show is dropped
    /// here, with a note, rather than kept where only `relayctl invoke` reaches it.
    public static func kept(_ actions: [Action]) -> [Action] {
        var buttons = 0
        var clickKept = false
        return actions.filter { action in
            if action.key == "default" {
                defer { clickKept = true }
                return !clickKept
            }
            buttons += 1
            return buttons <= ModelLimits.actionsPerCategory
        }
    }

    /// A notification made of decoded values, as the agents' tests and Relay's own senders build one.
    public init(
        appName: String, replacesID: UInt32 = 0, appIcon: String = "", summary: String, body: String = "",
        actions: [Action] = [], hints: NotificationHints = NotificationHints(), expireTimeout: Int32 = -1
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
        notes = hints.notes
    }
}
