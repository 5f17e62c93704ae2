public import Foundation

/// An APNs-style push payload: the `aps` dictionary plus the app's own keys.
///
/// ```json
/// {"aps": {"alert": {"title": "New Video", "body": "…"}, "mutable-content": 1},
///  "video-url": "https://…", "video-user": "John Appleseed"}
/// ```
/// Keys other than `aps` become the content's user info. Unknown `aps` keys are ignored,
/// as APNs does.
public struct PushPayload: Sendable, Hashable {
    /// The notification content the payload describes.
    public var content: NotificationContent
    /// `aps.mutable-content`: a service extension may rewrite the content before it is shown.
    public var mutableContent: Bool
    /// `aps.content-available`: the app is woken in the background.
    public var contentAvailable: Bool

    /// Creates a payload.
    public init(content: NotificationContent, mutableContent: Bool = false, contentAvailable: Bool = false) {
        self.content = content
        self.mutableContent = mutableContent
        self.contentAvailable = contentAvailable
    }

    /// A background-only push: nothing to show, so nothing is presented or mirrored.
    public var isSilent: Bool { content.isSilent }

    /// The largest payload accepted, as APNs allows for regular pushes.
    public static let maximumBytes = 4096

    /// Parses a payload, with an error that names the offending key.
    public static func parse(_ data: Data) throws(PushPayloadError) -> PushPayload {
        guard data.count <= maximumBytes else { throw .tooLarge(bytes: data.count) }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .notJSON
        }
        guard case .object(var members) = root else { throw .wrongType(key: "(root)", expected: "an object") }
        guard let apsValue = members.removeValue(forKey: "aps") else { throw .missingAPS }
        guard case .object(let aps) = apsValue else { throw .wrongType(key: "aps", expected: "an object") }

        var content = NotificationContent(userInfo: members)
        try readAlert(aps["alert"], into: &content)
        if let badge = aps["badge"] {
            guard let value = badge.integerValue, let count = Int(exactly: value), count >= 0 else {
                throw .wrongType(key: "aps.badge", expected: "a whole number of 0 or more")
            }
            content.badge = count
        }
        content.sound = try readSound(aps["sound"])
        content.threadIdentifier = try string(aps["thread-id"], key: "aps.thread-id") ?? ""
        content.categoryIdentifier = try string(aps["category"], key: "aps.category") ?? ""
        if let level = try string(aps["interruption-level"], key: "aps.interruption-level") {
            guard let parsed = InterruptionLevel(rawValue: level) else {
                throw .wrongType(key: "aps.interruption-level", expected: "passive, active, time-sensitive or critical")
            }
            content.interruptionLevel = parsed
        }
        return PushPayload(
            content: content,
            mutableContent: try flag(aps["mutable-content"], key: "aps.mutable-content"),
            contentAvailable: try flag(aps["content-available"], key: "aps.content-available"))
    }

    private static func readAlert(_ alert: JSONValue?, into content: inout NotificationContent) throws(PushPayloadError) {
        switch alert {
        case nil:
            return
        case .string(let body)?:
            content.body = body
        case .object(let fields)?:
            content.title = try string(fields["title"], key: "aps.alert.title") ?? ""
            content.subtitle = try string(fields["subtitle"], key: "aps.alert.subtitle") ?? ""
            content.body = try string(fields["body"], key: "aps.alert.body") ?? ""
        case let other?:
            throw .wrongType(key: "aps.alert", expected: "a string or an object, not \(other.kindName)")
        }
    }

    private static func readSound(_ sound: JSONValue?) throws(PushPayloadError) -> NotificationSound? {
        switch sound {
        case nil:
            return nil
        case .string(let name)?:
            return name == "default" ? .default : .named(name)
        case .object(let fields)?:
            let name = try string(fields["name"], key: "aps.sound.name") ?? "default"
            return name == "default" ? .default : .named(name)
        case let other?:
            throw .wrongType(key: "aps.sound", expected: "a string or an object, not \(other.kindName)")
        }
    }

    private static func string(_ value: JSONValue?, key: String) throws(PushPayloadError) -> String? {
        guard let value else { return nil }
        guard let string = value.stringValue else {
            throw .wrongType(key: key, expected: "a string, not \(value.kindName)")
        }
        return string
    }

    private static func flag(_ value: JSONValue?, key: String) throws(PushPayloadError) -> Bool {
        guard let value else { return false }
        guard let number = value.integerValue else { throw .wrongType(key: key, expected: "0 or 1") }
        return number != 0
    }
}

/// Why a push payload was refused.
public enum PushPayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Larger than `PushPayload.maximumBytes`.
    case tooLarge(bytes: Int)
    /// Not valid JSON.
    case notJSON
    /// No `aps` dictionary.
    case missingAPS
    /// A key holds the wrong kind of value.
    case wrongType(key: String, expected: String)

    /// A message for people.
    public var description: String {
        switch self {
        case .tooLarge(let bytes):
            "push payload is \(bytes) bytes; the limit is \(PushPayload.maximumBytes) bytes"
        case .notJSON:
            "push payload is not valid JSON"
        case .missingAPS:
            "push payload has no \"aps\" dictionary; put the alert, badge and sound inside \"aps\""
        case .wrongType(let key, let expected):
            "push payload key \"\(key)\" must be \(expected)"
        }
    }
}
