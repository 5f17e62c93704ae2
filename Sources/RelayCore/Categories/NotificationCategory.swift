/// A kind of notification an app declares once: its actions and how it looks with
/// previews hidden (Apple's `UNNotificationCategory`).
public struct NotificationCategory: Sendable, Hashable {
    /// The identifier notifications name in `categoryIdentifier`.
    public var identifier: String
    /// The buttons offered with the notification, in order.
    public var actions: [NotificationAction]
    /// What replaces the body when previews are hidden, as plural forms of a format with
    /// `%u` for the number of notifications ("%u Comments"). `nil` uses the default
    /// ("Notification" / "%u Notifications").
    public var hiddenPreviewsBodyPlaceholder: PluralizedText?
    /// The summary of a coalesced group ("%u more messages"); `nil` uses the default.
    public var categorySummaryFormat: PluralizedText?
    /// Behaviour switches.
    public var options: CategoryOptions

    /// Creates a category.
    public init(
        identifier: String, actions: [NotificationAction] = [],
        hiddenPreviewsBodyPlaceholder: PluralizedText? = nil,
        categorySummaryFormat: PluralizedText? = nil, options: CategoryOptions = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
        self.options = options
    }

    /// The action with an identifier, if the category has it.
    public func action(withIdentifier identifier: String) -> NotificationAction? {
        actions.first { $0.identifier == identifier }
    }
}

/// Behaviour switches of a category (Apple's `UNNotificationCategoryOptions`).
public struct CategoryOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int
    /// Creates options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Report a dismissal to the app as a response (otherwise dismissals are silent).
    public static let customDismissAction = CategoryOptions(rawValue: 1 << 0)
    /// Keep the title visible when previews are hidden.
    public static let hiddenPreviewsShowTitle = CategoryOptions(rawValue: 1 << 1)
    /// Keep the subtitle visible when previews are hidden.
    public static let hiddenPreviewsShowSubtitle = CategoryOptions(rawValue: 1 << 2)
}

extension CategoryOptions: NamedOptionSet {
    static let names: [(CategoryOptions, String)] = [
        (.customDismissAction, "customDismissAction"),
        (.hiddenPreviewsShowTitle, "hiddenPreviewsShowTitle"),
        (.hiddenPreviewsShowSubtitle, "hiddenPreviewsShowSubtitle"),
    ]
}

/// A button offered with a notification (Apple's `UNNotificationAction`), optionally
/// asking for text (`UNTextInputNotificationAction`).
public struct NotificationAction: Sendable, Hashable {
    /// Identifies the action in the response the app receives. `default` and `dismiss`
    /// are reserved for the default and dismiss responses.
    public var identifier: String
    /// The button's label.
    public var title: String
    /// Behaviour switches.
    public var options: ActionOptions
    /// Present when the action asks for a text reply.
    public var textInput: TextInputOptions?

    /// Creates an action.
    public init(identifier: String, title: String, options: ActionOptions = [], textInput: TextInputOptions? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInput = textInput
    }
}

/// Behaviour switches of an action (Apple's `UNNotificationActionOptions`).
public struct ActionOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int
    /// Creates options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The phone must be unlocked before the action runs.
    public static let authenticationRequired = ActionOptions(rawValue: 1 << 0)
    /// The action deletes or discards something; shown in red.
    public static let destructive = ActionOptions(rawValue: 1 << 1)
    /// The action opens the app on the phone.
    public static let foreground = ActionOptions(rawValue: 1 << 2)
}

extension ActionOptions: NamedOptionSet {
    static let names: [(ActionOptions, String)] = [
        (.authenticationRequired, "authenticationRequired"),
        (.destructive, "destructive"),
        (.foreground, "foreground"),
    ]
}

/// The text field of an action that asks for a reply.
public struct TextInputOptions: Sendable, Hashable {
    /// The label of the send button.
    public var buttonTitle: String
    /// Grey text shown in the empty field.
    public var placeholder: String
    /// Replies offered for one-press sending; the wearable, which has no keyboard, offers
    /// only these.
    public var suggestedReplies: [String]

    /// Creates text-input options.
    public init(buttonTitle: String = "Send", placeholder: String = "", suggestedReplies: [String] = []) {
        self.buttonTitle = buttonTitle
        self.placeholder = placeholder
        self.suggestedReplies = suggestedReplies
    }
}
