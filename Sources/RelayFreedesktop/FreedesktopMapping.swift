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
    /// urgency as interruption level, the sound unless suppressed or low urgency.
    public static func content(of call: NotifyCall, categoryIdentifier: String = "") -> NotificationContent {
        let hints = call.hints
        let level: InterruptionLevel =
            switch hints.urgency {
            case .low: .passive
            case .normal: .active
            case .critical: .critical
            }
        let sound: NotificationSound? =
            hints.suppressSound || hints.urgency == .low ? nil : hints.soundName.map { .named($0) } ?? .default
        var userInfo: [String: JSONValue] = ["freedesktop.app_name": .string(call.appName)]
        if let category = hints.category { userInfo["freedesktop.category"] = .string(category) }
        if let entry = hints.desktopEntry { userInfo["freedesktop.desktop_entry"] = .string(entry) }
        var attachments = call.attachments ?? []
        if call.attachments == nil, let path = hints.imagePath, !path.isEmpty {
            attachments.append(NotificationAttachment(identifier: imageIdentifier, url: path, type: mediaType(ofPath: path)))
        }
        return NotificationContent(
            title: call.summary,
            body: BodyMarkup.plainText(call.body).truncated(toUTF8Bytes: ModelLimits.bodyBytes),
            sound: sound, userInfo: userInfo, categoryIdentifier: categoryIdentifier, attachments: attachments,
            interruptionLevel: level)
    }

    /// The category a call's actions make, or `nil` when it has no buttons. The `default`
    /// action is the notification's default response, not a button; a reply placeholder
    /// hint adds KDE's inline reply as a text-input action.
    public static func category(of call: NotifyCall, identifier: String) -> NotificationCategory? {
        var actions = call.actions.filter { $0.key != ResponseAction.defaultIdentifier && $0.key != ResponseAction.dismissIdentifier }
            .map { NotificationAction(identifier: $0.key.truncated(toUTF8Bytes: ModelLimits.actionIdentifierBytes), title: $0.label.truncated(toUTF8Bytes: ModelLimits.actionTextBytes)) }
        if let placeholder = call.hints.replyPlaceholder {
            actions.removeAll { $0.identifier == inlineReplyKey }
            actions.append(NotificationAction(
                identifier: inlineReplyKey, title: "Reply",
                textInput: TextInputOptions(buttonTitle: "Send", placeholder: placeholder.truncated(toUTF8Bytes: ModelLimits.actionTextBytes))))
        }
        var seen = Set<String>()
        actions = actions.filter { !$0.identifier.isEmpty && !$0.title.isEmpty && seen.insert($0.identifier).inserted }
        guard !actions.isEmpty else { return nil }
        return NotificationCategory(identifier: identifier, actions: Array(actions.prefix(ModelLimits.actionsPerCategory)))
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
