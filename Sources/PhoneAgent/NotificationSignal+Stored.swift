public import Foundation
import RelayFreedesktop

/// A signal as `SignalOutboxTable` keeps it until it is emitted: JSON of its case and fields.
extension NotificationSignal {
    private struct Stored: Codable {
        var kind: String
        var id: UInt32?
        var key: String?
        var text: String?
        var reason: UInt32?
        var appID: String?
        var identifier: String?
        var action: String?
        var destination: String?
    }

    /// The signal, encoded to be stored.
    public var stored: Data {
        let value: Stored =
            switch self {
            case .actionInvoked(let id, let key): Stored(kind: "actionInvoked", id: id, key: key)
            case .replied(let id, let text): Stored(kind: "replied", id: id, text: text)
            case .closed(let id, let reason): Stored(kind: "closed", id: id, reason: reason.rawValue)
            case .response(let response):
                Stored(
                    kind: "response", text: response.text, appID: response.appID, identifier: response.identifier,
                    action: response.action, destination: response.destination)
            }
        // Strings and integers only: encoding cannot fail.
        return (try? JSONEncoder().encode(value)) ?? Data()
    }

    /// A stored signal; `nil` for one this version cannot read.
    public init?(stored data: Data) {
        guard let value = try? JSONDecoder().decode(Stored.self, from: data) else { return nil }
        switch value.kind {
        case "actionInvoked":
            guard let id = value.id, let key = value.key else { return nil }
            self = .actionInvoked(id: id, key: key)
        case "replied":
            guard let id = value.id, let text = value.text else { return nil }
            self = .replied(id: id, text: text)
        case "closed":
            guard let id = value.id, let reason = value.reason.flatMap(CloseReason.init(rawValue:)) else { return nil }
            self = .closed(id: id, reason: reason)
        case "response":
            guard let appID = value.appID, let identifier = value.identifier, let action = value.action else { return nil }
            self = .response(
                RichResponse(appID: appID, identifier: identifier, action: action, text: value.text ?? "", destination: value.destination))
        default:
            return nil
        }
    }
}
