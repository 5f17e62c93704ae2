public import RelayCore

/// How a freedesktop notification becomes Relay's model, and what the server announces.
public enum FreedesktopMapping {
    /// `GetCapabilities`: actions (with the default action), plain and marked-up bodies
    /// (markup is reduced to text), persistence (kept until dismissed), and KDE's
    /// `inline-reply` so clients offer a text reply.
    public static let capabilities = ["actions", "body", "body-markup", "persistence", "inline-reply"]

    /// `GetServerInformation`: name, vendor, version, spec version.
    public static let serverInformation = ("Relay", "Relay", RelayVersion.string, "1.2")

    /// The identifier of the attachment made of `image-path` or `image-data`.
    public static let imageIdentifier = "image"

    /// The action key KDE's `inline-reply` uses for the reply.
    public static let inlineReplyKey = "inline-reply"

    /// The content of a `Notify` call: the summary as title, the body as plain text,
    /// urgency as interruption level (low passive, normal active, critical critical) unless the
    /// `x-relay-interruption-level` hint names one, the sound unless suppressed or passive.
    public static func content(of call: PostedNotification, categoryIdentifier: String = "") -> NotificationContent {
        let hints = call.hints
        let level: InterruptionLevel =
            hints.interruptionLevel
            ?? {
                switch hints.urgency {
                case .low: .passive
                case .normal: .active
                case .critical: .critical
                }
            }()
        // No sound for what the level keeps quiet, whether the urgency or Relay's hint says so.
        let sound: NotificationSound? =
            hints.suppressSound || level == .passive ? nil : hints.soundName.map { .named($0) } ?? .default
        var userInfo: [String: JSONValue] = ["freedesktop.app_name": .string(call.appName)]
        if let category = hints.category { userInfo[NotificationContent.freedesktopCategoryKey] = .string(category) }
        if let entry = hints.desktopEntry { userInfo["freedesktop.desktop_entry"] = .string(entry) }
        var attachments = call.attachments ?? []
        if call.attachments == nil, let path = hints.imagePath, !path.isEmpty {
            attachments.append(NotificationAttachment(identifier: imageIdentifier, url: path, type: mediaType(ofPath: path)))
        }
        return NotificationContent(
            title: call.summary,
            body: displayedBody(of: call.body),
            sound: sound, userInfo: userInfo, categoryIdentifier: categoryIdentifier, attachments: attachments,
            interruptionLevel: level)
    }

    /// The text a body shows: its markup's plain text, shortened to `ModelLimits.bodyBytes` at a
    /// word with "…" (Docs/PHONE.md, "Limits"). `NotifyCall` says in the log what was kept.
    public static func displayedBody(of markup: String) -> String {
        BodyMarkup.plainText(markup).shortened(toUTF8Bytes: ModelLimits.bodyBytes)
    }

    /// The category a call's actions make, or `nil` when it has no buttons.
    public static func category(of call: PostedNotification) -> NotificationCategory? {
        category(actions: call.actions, replyPlaceholder: call.hints.replyPlaceholder)
    }

    /// The buttons freedesktop actions make, as a category; `nil` when there are none. The
    /// `default` action is a tap on the notification, not a button; KDE's inline reply (its
    /// action, its placeholder hint, or `acceptsReply`) is a text-input action. Keys and labels
    /// are cut to the model's limits (the phone finds a cut key again,
    /// `DeliveredNotification.actionKey(fromWire:)`). The identifier names the set of buttons,
    /// so that notifications with equal buttons share one category on the wire.
    public static func category(
        actions: [PostedNotification.Action], replyPlaceholder: String?, acceptsReply: Bool = false
    ) -> NotificationCategory? {
        let placeholder = (replyPlaceholder ?? "").truncated(toUTF8Bytes: ModelLimits.actionTextBytes)
        func reply(_ title: String) -> NotificationAction {
            NotificationAction(
                identifier: inlineReplyKey, title: title, textInput: TextInputOptions(buttonTitle: "Send", placeholder: placeholder))
        }
        var buttons = actions
            .filter { $0.key != ResponseAction.defaultIdentifier && $0.key != ResponseAction.dismissIdentifier }
            .filter { !$0.key.isEmpty && !$0.label.isEmpty }
            .map { action in
                let title = action.label.truncated(toUTF8Bytes: ModelLimits.actionTextBytes)
                return action.key == inlineReplyKey
                    ? reply(title)
                    : NotificationAction(identifier: action.key.truncated(toUTF8Bytes: ModelLimits.actionIdentifierBytes), title: title)
            }
        if acceptsReply || replyPlaceholder != nil, !buttons.contains(where: { $0.identifier == inlineReplyKey }) {
            buttons.append(reply("Reply"))
        }
        var seen = Set<String>()
        buttons = Array(buttons.filter { !$0.title.isEmpty && seen.insert($0.identifier).inserted }.prefix(ModelLimits.actionsPerCategory))
        guard !buttons.isEmpty else { return nil }
        let signature = buttons.map { "\($0.identifier)=\($0.title)" + ($0.textInput.map { "|" + $0.placeholder } ?? "") }
        return NotificationCategory(identifier: "freedesktop:" + signature.joined(separator: "\u{1E}"), actions: buttons)
    }

    /// When a notification expires: `nil` for never. -1 (the server's choice) means never,
    /// because Relay keeps notifications until they are dismissed ("persistence"), except for
    /// a `transient` one, which by-passes persistence as the specification says and goes after
    /// `transientSeconds`. A `critical` one never expires: the specification asks that only
    /// the user close it.
    public static func expiry(milliseconds: Int32, hints: NotificationHints = NotificationHints()) -> Duration? {
        if hints.urgency == .critical { return nil }
        if milliseconds > 0 { return .milliseconds(Int64(milliseconds)) }
        return milliseconds == -1 && hints.transient ? .seconds(transientSeconds) : nil
    }

    /// How long a transient notification with the server's default timeout stays.
    public static let transientSeconds: Int64 = 10

    private static func mediaType(ofPath path: String) -> String {
        switch path.split(separator: ".").last?.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "svg": "image/svg+xml"
        case "webp": "image/webp"
        default: ""
        }
    }
}

/// `NotificationClosed` reasons (spec 1.2).
public enum CloseReason: UInt32, Sendable, Hashable {
    /// It expired.
    case expired = 1
    /// The user dismissed it (on the phone or the wearable).
    case dismissedByUser = 2
    /// `CloseNotification` was called.
    case closedByCall = 3
    /// Undefined or reserved.
    case undefined = 4
}
