/// Why the centre refused to act on a notification; each says what to do instead.
public enum CentreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No delivered notification has this id (closed, expired, or never sent).
    case unknownNotification(UInt32)
    /// The notification has no action with this key.
    case unknownAction(id: UInt32, key: String, available: [String])
    /// The notification does not take a text reply.
    case repliesNotAccepted(UInt32)
    /// The action asks for text (a rich notification's text-input action), so it is answered with a reply.
    case textRequired(id: UInt32, key: String)
    /// A reply named an action that does not ask for text.
    case notATextInputAction(id: UInt32, key: String, textInputActions: [String])
    /// A reply's text is longer than the model allows.
    case replyTooLong(id: UInt32, bytes: Int, limit: Int)

    /// One sentence for relayctl.
    public var description: String {
        switch self {
        case .unknownNotification(let id):
            "no delivered notification has id \(id); list them with: relayctl delivered"
        case .unknownAction(let id, let key, let available):
            "notification \(id) has no action '\(key)'; "
                + (available.isEmpty ? "it has no actions" : "its actions are: \(available.joined(separator: ", "))")
        case .repliesNotAccepted(let id):
            "notification \(id) does not take a reply (its app sent no inline-reply action or placeholder hint, "
                + "or its category has no text-input action)"
        case .textRequired(let id, let key):
            "action '\(key)' of notification \(id) asks for text; send it with: relayctl reply \(id) TEXT --action \(key)"
        case .notATextInputAction(let id, let key, let actions):
            "action '\(key)' of notification \(id) does not ask for text; its text-input actions are: "
                + actions.joined(separator: ", ")
        case .replyTooLong(let id, let bytes, let limit):
            "the reply to notification \(id) is \(bytes) bytes long; the limit is \(limit) bytes (UTF-8)"
        }
    }
}
