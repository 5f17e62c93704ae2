public import RelayCore
public import RelayDBus

/// The arguments of `org.freedesktop.Notifications.Notify` (`susssasa{sv}i`), read
/// defensively: the call comes from any process on the bus.
public struct NotifyCall: Sendable, Hashable {
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

    /// The signature of `Notify`'s arguments.
    public static let signature = "susssasa{sv}i"
    /// The most actions kept; the rest are dropped with a note.
    public static let maximumActions = ModelLimits.actionsPerCategory + 1

    /// A call made of decoded values, as the agents' tests and Relay's own senders build one.
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

    /// Reads the arguments of a `Notify` call. Wrong types are an error (the caller gets
    /// `InvalidArgs`); oversized values are clamped with a note.
    public init(arguments: [DBusValue]) throws(DBusError) {
        guard arguments.count == 8,
            case .string(let appName) = arguments[0], case .uint32(let replacesID) = arguments[1],
            case .string(let appIcon) = arguments[2], case .string(let summary) = arguments[3],
            case .string(let body) = arguments[4], case .array(_, let actionValues) = arguments[5],
            case .dictionary(_, _, let hintEntries) = arguments[6], case .int32(let timeout) = arguments[7]
        else {
            throw DBusError(
                .invalidArgs,
                "Notify takes (\(Self.signature)), got (\(arguments.map(\.signature.rawValue).joined()))")
        }
        var notes: [String] = []
        var strings: [String] = []
        for value in actionValues {
            guard case .string(let text) = value else {
                throw DBusError(.invalidArgs, "Notify's actions must be strings")
            }
            strings.append(text)
        }
        if strings.count % 2 != 0 {
            notes.append("actions: an odd number of strings; the last key has no label and was dropped")
            strings.removeLast()
        }
        var actions = stride(from: 0, to: strings.count, by: 2).map { Action(key: strings[$0], label: strings[$0 + 1]) }
        if actions.count > Self.maximumActions {
            notes.append("actions: \(actions.count) sent, the first \(Self.maximumActions) kept")
            actions = Array(actions.prefix(Self.maximumActions))
        }
        var hints: [String: DBusValue] = [:]
        for entry in hintEntries {
            if case .string(let key) = entry.key { hints[key] = entry.value }
        }
        self.appName = Self.clamp(appName, "app_name", ModelLimits.titleBytes, &notes)
        self.replacesID = replacesID
        self.appIcon = Self.clamp(appIcon, "app_icon", ModelLimits.urlBytes, &notes)
        self.summary = Self.clamp(summary, "summary", ModelLimits.titleBytes, &notes)
        // Markup can be several times longer than its text; keep room for it here and
        // clamp the plain text itself in `FreedesktopMapping`.
        self.body = Self.clamp(body, "body", 4 * ModelLimits.bodyBytes, &notes)
        self.actions = actions
        self.hints = NotificationHints(hints)
        expireTimeout = timeout
        self.notes = notes + self.hints.notes
    }

    private static func clamp(_ text: String, _ field: String, _ limit: Int, _ notes: inout [String]) -> String {
        guard text.utf8.count > limit else { return text }
        notes.append("\(field): \(text.utf8.count) bytes clamped to \(limit)")
        return text.truncated(toUTF8Bytes: limit)
    }
}
