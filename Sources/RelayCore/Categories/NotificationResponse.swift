public import Foundation

/// What the user did with a notification, delivered back to the app that posted it
/// (Apple's `UNNotificationResponse` and `UNTextInputNotificationResponse`).
public struct NotificationResponse: Sendable, Hashable {
    /// The notification acted on.
    public var notificationIdentifier: String
    /// Which action the user chose.
    public var action: ResponseAction
    /// The text the user sent, for an action with text input.
    public var userText: String?
    /// When the user acted, on the device where they acted.
    public var date: Date

    /// Creates a response.
    public init(notificationIdentifier: String, action: ResponseAction, userText: String? = nil, date: Date) {
        self.notificationIdentifier = notificationIdentifier
        self.action = action
        self.userText = userText
        self.date = date
    }
}

/// The action a response carries.
public enum ResponseAction: Sendable, Hashable {
    /// The user opened the notification (freedesktop's `default` action key).
    case `default`
    /// The user dismissed it; reported when the category asks for custom dismiss actions.
    case dismiss
    /// One of the category's actions, by identifier.
    case custom(String)

    /// The identifier written in JSON and on D-Bus: `default`, `dismiss`, or the action's.
    public var identifier: String {
        switch self {
        case .default: Self.defaultIdentifier
        case .dismiss: Self.dismissIdentifier
        case .custom(let identifier): identifier
        }
    }

    /// Parses an identifier; the reserved names map to the default and dismiss actions.
    public init(identifier: String) {
        switch identifier {
        case Self.defaultIdentifier: self = .default
        case Self.dismissIdentifier: self = .dismiss
        default: self = .custom(identifier)
        }
    }

    /// The identifier of the default action, as freedesktop notifications name it.
    public static let defaultIdentifier = "default"
    /// The identifier of the dismiss action.
    public static let dismissIdentifier = "dismiss"
}

extension NotificationResponse: Codable {
    private enum CodingKeys: String, CodingKey { case notificationIdentifier, action, userText, date }

    /// Decodes a response; the action is its identifier.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            notificationIdentifier: try c.decode(String.self, forKey: .notificationIdentifier),
            action: ResponseAction(identifier: try c.decode(String.self, forKey: .action)),
            userText: try c.decodeIfPresent(String.self, forKey: .userText),
            date: try c.decode(Date.self, forKey: .date))
    }

    /// Encodes the response with the action as its identifier.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(notificationIdentifier, forKey: .notificationIdentifier)
        try c.encode(action.identifier, forKey: .action)
        try c.encodeIfPresent(userText, forKey: .userText)
        try c.encode(date, forKey: .date)
    }
}
