/// Why the centre refused a call of Relay's own API; each says what to do instead.
/// relay-phone answers ``invalid(_:)`` with `org.relay.Error.InvalidRequest` and ``unknown(appID:identifiers:pending:)``
/// with `org.relay.Error.UnknownNotification`.
public enum RichError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app id, request or categories break a rule; the message names each field and what is allowed,
    /// one problem per line.
    case invalid(String)
    /// Some identifiers name no pending (or no delivered) request of the app; nothing was removed.
    case unknown(appID: String, identifiers: [String], pending: Bool)

    /// The message for people.
    public var description: String {
        switch self {
        case .invalid(let message):
            return message
        case .unknown(let appID, let identifiers, let pending):
            let names = identifiers.map { "'\($0)'" }.joined(separator: ", ")
            let kind = pending ? "pending request" : "delivered notification"
            let command = pending ? "GetPending (relayctl pending" : "GetDelivered (relayctl delivered"
            return "\(appID) has no \(kind) with the identifier \(names); nothing was removed; "
                + "list them with \(command) --app-id \(appID))"
        }
    }
}
