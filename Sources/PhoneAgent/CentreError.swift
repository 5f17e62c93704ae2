/// Why the centre refused to act on a notification; each says what to do instead.
public enum CentreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No delivered notification has this id (closed, expired, or never sent).
    case unknownNotification(UInt32)
    /// The notification has no action with this key.
    case unknownAction(id: UInt32, key: String, available: [String])
    /// The notification does not take a text reply.
    case repliesNotAccepted(UInt32)

    /// One sentence for relayctl.
    public var description: String {
        switch self {
        case .unknownNotification(let id):
            "no delivered notification has id \(id); list them with: relayctl delivered"
        case .unknownAction(let id, let key, let available):
            "notification \(id) has no action '\(key)'; "
                + (available.isEmpty ? "it has no actions" : "its actions are: \(available.joined(separator: ", "))")
        case .repliesNotAccepted(let id):
            "notification \(id) does not take a reply (its app sent no inline-reply action or placeholder hint)"
        }
    }
}
