import Foundation
import PhoneAgent
import RelayCore
import RelayDBus

/// The rich API's JSON arguments and results (Docs/RICH-API.md): the model's canonical form
/// (`RelayJSON`, Docs/MODEL.md), with errors that name the field, as D-Bus errors.
enum RichJSON {
    /// `org.relay.Error.InvalidRequest`: the JSON or the model's rules; the message names the field.
    static let invalidRequest: DBusError.Name = "org.relay.Error.InvalidRequest"
    /// `org.relay.Error.UnknownNotification`: an identifier names nothing pending or delivered.
    static let unknownNotification: DBusError.Name = "org.relay.Error.UnknownNotification"

    /// A pending request in `GetPending`'s answer.
    struct Pending: Encodable {
        let request: NotificationRequest
        let nextFireDate: Date

        init(_ pending: PendingRequest) {
            request = pending.request
            nextFireDate = pending.nextFireDate
        }
    }

    /// A delivered notification in `GetDelivered`'s answer: the model's delivered notification
    /// (`request`, `date`) and the id relayctl and the wearable act on it by.
    struct Delivered: Encodable {
        let id: UInt32
        let request: NotificationRequest
        let date: Date

        init?(_ notification: PhoneAgent.DeliveredNotification) {
            guard let request = notification.request, let date = notification.origin.rich?.date else { return nil }
            id = notification.id
            self.request = request
            self.date = date
        }
    }

    /// Decodes an argument; the error names the argument and the path inside it.
    static func decode<Value: Decodable>(_ type: Value.Type, _ text: String, as argument: String) throws(DBusError) -> Value {
        do {
            return try RelayJSON.decode(type, from: Data(text.utf8))
        } catch let error as DecodingError {
            throw DBusError(invalidRequest, describe(error, argument: argument))
        } catch {
            throw DBusError(invalidRequest, "\(argument) is not valid JSON: \(error)")
        }
    }

    /// Encodes a result in the canonical form.
    static func encode(_ value: some Encodable) throws(DBusError) -> String {
        do {
            return String(decoding: try RelayJSON.encode(value), as: UTF8.self)
        } catch {
            throw DBusError(.failed, "relay-phone could not encode its answer: \(error)")
        }
    }

    /// The D-Bus error for a refusal of the centre.
    static func dbusError(_ error: RichError) -> DBusError {
        switch error {
        case .invalid: DBusError(invalidRequest, error.description)
        case .unknown: DBusError(unknownNotification, error.description)
        }
    }

    /// `request.content.title has the wrong type; expected String`: Foundation's decoding errors as
    /// one line naming the JSON path from the argument down.
    private static func describe(_ error: DecodingError, argument: String) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            argument + codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) has the wrong type; expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null; expected \(type)"
        case .dataCorrupted(let context):
            let detail = context.underlyingError.map { _ in "not valid JSON" } ?? context.debugDescription
            return "\(path(context.codingPath)): \(detail)"
        @unknown default:
            return "\(argument): \(error)"
        }
    }
}
