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

    /// Reads the arguments of a `Notify` call from decoded values. Wrong types are an error (the
    /// caller gets `InvalidArgs`); oversized values are clamped with a note.
    public init(arguments: [DBusValue]) throws(DBusError) {
        var reader = DBusArgumentReader(arguments)
        try self.init(reading: &reader)
    }

    /// Reads the arguments of a `Notify` call, as a server reads them from the message. Wrong
    /// types are an error (the caller gets `InvalidArgs`); oversized values are clamped with a note.
    public init(reading arguments: inout DBusArgumentReader) throws(DBusError) {
        let appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String, timeout: Int32
        var strings: [String] = []
        var hints: [String: DBusValue] = [:]
        do throws(DBusError) {
            appName = try arguments.read(String.self)
            replacesID = try arguments.read(UInt32.self)
            appIcon = try arguments.read(String.self)
            summary = try arguments.read(String.self)
            body = try arguments.read(String.self)
            try arguments.readArray { elements throws(DBusError) in
                while !elements.isAtEnd { strings.append(try elements.read(String.self)) }
            }
            try arguments.readDictionary { entry throws(DBusError) in
                let key = try entry.read(String.self)
                hints[key] = try entry.readValue()
            }
            timeout = try arguments.read(Int32.self)
            guard arguments.isAtEnd else { throw DBusError(.invalidArgs, "there are more than 8 arguments") }
        } catch {
            throw DBusError(.invalidArgs, "Notify takes (\(Self.signature)): \(error.message)")
        }
        var notes: [String] = []
        if strings.count % 2 != 0 {
            notes.append("actions: an odd number of strings; the last key has no label and was dropped")
            strings.removeLast()
        }
        var actions = stride(from: 0, to: strings.count, by: 2).map { Action(key: strings[$0], label: strings[$0 + 1]) }
        if actions.count > Self.maximumActions {
            notes.append("actions: \(actions.count) sent, the first \(Self.maximumActions) kept")
            actions = Array(actions.prefix(Self.maximumActions))
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
