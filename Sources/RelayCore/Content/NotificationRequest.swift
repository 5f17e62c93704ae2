public import Foundation

/// A notification an app asks to show: its identity, its content and when to show it.
///
/// Posting a request with the identifier of an earlier one replaces that one in place
/// (an update); the identifier is what the phone and the wearable reconcile by.
public struct NotificationRequest: Sendable, Hashable {
    /// Stable identity, chosen by the app; unique per app.
    public var identifier: String
    /// What the notification says.
    public var content: NotificationContent
    /// When to deliver it; `nil` delivers it at once.
    public var trigger: NotificationTrigger?

    /// Creates a request.
    public init(identifier: String, content: NotificationContent, trigger: NotificationTrigger? = nil) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
    }
}

extension NotificationRequest: Codable {
    private enum CodingKeys: String, CodingKey { case identifier, content, trigger }

    /// Decodes a request; an absent trigger means "deliver at once".
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        content = try c.decode(NotificationContent.self, forKey: .content, default: NotificationContent())
        trigger = try c.decodeIfPresent(NotificationTrigger.self, forKey: .trigger)
    }

    /// Encodes the request, leaving out an absent trigger.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(content, forKey: .content)
        try c.encodeIfPresent(trigger, forKey: .trigger)
    }
}

/// A request that has been delivered, with the moment it was (Apple's `UNNotification`).
public struct DeliveredNotification: Sendable, Hashable, Codable {
    /// The request that was delivered.
    public var request: NotificationRequest
    /// When it was delivered.
    public var date: Date

    /// Creates a delivered notification.
    public init(request: NotificationRequest, date: Date) {
        self.request = request
        self.date = date
    }
}
