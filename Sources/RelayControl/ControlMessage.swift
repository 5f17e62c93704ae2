public import Foundation

/// The wire shape of every control request: one flat JSON object, `{"command":"screenshot","path":"/tmp/x.png"}`.
///
/// Its members are the union of what the commands take. Code does not build or read envelopes
/// directly: `WearableRequest` and `PhoneRequest` are the requests, and each converts to and from
/// this shape, so a missing member is found once, when the request is decoded, and named there.
public struct ControlEnvelope: Codable, Hashable, Sendable {
    /// The command's name, as Docs/CONTROL.md lists it.
    public var command: String
    /// An absolute file path (`screenshot`).
    public var path: String?
    /// A key name (`press`): `up`, `down`, `select`, `back`.
    public var key: String?
    /// A notification's id (`invoke`, `reply`, `dismiss`, `respond`).
    public var id: UInt32?
    /// An action key (`invoke`, `respond`, `reply`), or `accept`/`reject` (`pair-confirm`).
    public var action: String?
    /// A reply's text (`reply`, `respond`).
    public var text: String?
    /// An interruption level (`vibrate`): `passive`, `active`, `time-sensitive`, `critical`.
    public var level: String?
    /// Until when, in seconds since 1970 (`dnd` with `action` `on`, `mutes` with `action`
    /// `add`; absent: until turned off, always).
    public var until: Double?
    /// An app's name (`mutes`).
    public var app: String?
    /// A thread: its identifier on the phone, its key on the wearable (`mutes`).
    public var thread: String?
    /// The quiet hours to set (`quiet-hours` with `action` `set`).
    public var quietHours: QuietHoursSpec?
    /// A notification to run through the policy (`filter` with `action` `test`).
    public var notification: NotificationProbe?
    /// The canned replies to keep (`replies` with `action` `set`).
    public var replies: [String]?

    /// Creates an envelope.
    public init(
        command: String, path: String? = nil, key: String? = nil, id: UInt32? = nil, action: String? = nil,
        text: String? = nil, level: String? = nil, until: Double? = nil, app: String? = nil, thread: String? = nil,
        quietHours: QuietHoursSpec? = nil, notification: NotificationProbe? = nil, replies: [String]? = nil
    ) {
        self.replies = replies
        self.quietHours = quietHours
        self.notification = notification
        self.until = until
        self.app = app
        self.thread = thread
        self.command = command
        self.path = path
        self.key = key
        self.id = id
        self.action = action
        self.text = text
        self.level = level
    }
}

/// Quiet hours as `relayctl quiet-hours set` gives them: minutes after midnight, the days a
/// period starts on (1 Sunday … 7 Saturday), and the zone's IANA name.
public struct QuietHoursSpec: Codable, Hashable, Sendable {
    /// Minutes after midnight when they start.
    public var start: Int
    /// Minutes after midnight when they end.
    public var end: Int
    /// The days a period starts on, 1 Sunday … 7 Saturday.
    public var weekdays: [Int]
    /// The time zone ("Europe/Berlin").
    public var timeZone: String

    /// A specification.
    public init(start: Int, end: Int, weekdays: [Int], timeZone: String) {
        self.start = start
        self.end = end
        self.weekdays = weekdays
        self.timeZone = timeZone
    }
}

/// A notification as `relayctl filter test` describes it, to run through the phone's filter
/// rules and policy without posting it.
public struct NotificationProbe: Codable, Hashable, Sendable {
    /// The app's name.
    public var app: String
    /// The title (the summary).
    public var title: String
    /// The body.
    public var body: String
    /// The freedesktop category hint ("" for none).
    public var category: String
    /// The interruption level: passive, active, time-sensitive or critical.
    public var level: String
    /// The thread's identifier ("" for none).
    public var thread: String

    /// A probe.
    public init(app: String, title: String, body: String = "", category: String = "", level: String = "active", thread: String = "") {
        self.app = app
        self.title = title
        self.body = body
        self.category = category
        self.level = level
        self.thread = thread
    }

    /// Reads a probe; every member but `app` and `title` may be left out.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        app = try members.decode(String.self, forKey: .app)
        title = try members.decode(String.self, forKey: .title)
        body = try members.decodeIfPresent(String.self, forKey: .body) ?? ""
        category = try members.decodeIfPresent(String.self, forKey: .category) ?? ""
        level = try members.decodeIfPresent(String.self, forKey: .level) ?? "active"
        thread = try members.decodeIfPresent(String.self, forKey: .thread) ?? ""
    }
}

/// A value in a response: text, whole numbers, and lists and objects of them (the phone's
/// `delivered` list).
public indirect enum ControlValue: Codable, Hashable, Sendable, CustomStringConvertible {
    /// Text.
    case string(String)
    /// A whole number (sizes, counts, seconds).
    case int(Int)
    /// A list.
    case list([ControlValue])
    /// An object, by member name.
    case object([String: ControlValue])

    /// Decodes a number, a string, a list or an object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let list = try? container.decode([ControlValue].self) {
            self = .list(list)
        } else {
            self = .object(try container.decode([String: ControlValue].self))
        }
    }

    /// Encodes the bare value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .int(let number): try container.encode(number)
        case .list(let list): try container.encode(list)
        case .object(let object): try container.encode(object)
        }
    }

    /// The value as a person reads it.
    public var description: String {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .list(let list): list.map(\.description).joined(separator: ", ")
        case .object(let object): object.keys.sorted().map { "\($0)=\(object[$0]?.description ?? "")" }.joined(separator: " ")
        }
    }
}

/// One response on a control socket: `{"ok":true,"screen":"list"}` or
/// `{"ok":false,"error":"…what happened and what to do…"}`.
///
/// The values sit beside `ok` in one flat object, so a shell script can read them with `jq .screen`.
public struct ControlResponse: Codable, Hashable, Sendable {
    /// Whether the command succeeded.
    public var ok: Bool
    /// What went wrong and what to do, when `ok` is false.
    public var error: String?
    /// What the command reports, by name.
    public var values: [String: ControlValue]

    /// A success with values.
    public static func success(_ values: [String: ControlValue] = [:]) -> ControlResponse {
        ControlResponse(ok: true, error: nil, values: values)
    }

    /// A failure with its explanation.
    public static func failure(_ error: String) -> ControlResponse {
        ControlResponse(ok: false, error: error, values: [:])
    }

    /// Creates a response.
    public init(ok: Bool, error: String?, values: [String: ControlValue]) {
        self.ok = ok
        self.error = error
        self.values = values
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes the flat object: `ok`, `error`, and every other member as a value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        ok = try container.decode(Bool.self, forKey: Key("ok"))
        error = try container.decodeIfPresent(String.self, forKey: Key("error"))
        var values: [String: ControlValue] = [:]
        for key in container.allKeys where key.stringValue != "ok" && key.stringValue != "error" {
            values[key.stringValue] = try container.decode(ControlValue.self, forKey: key)
        }
        self.values = values
    }

    /// Encodes the flat object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(ok, forKey: Key("ok"))
        try container.encodeIfPresent(error, forKey: Key("error"))
        for (name, value) in values where name != "ok" && name != "error" {
            try container.encode(value, forKey: Key(name))
        }
    }
}

/// The one JSON configuration of the control protocol: compact, keys sorted (stable output),
/// one line per message (JSONEncoder never writes a raw newline inside compact output).
public enum ControlJSON {
    /// Encodes a message as one line, without the terminating newline.
    public static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Decodes one message.
    public static func decode<Message: Decodable>(_ type: Message.Type, from data: Data) throws -> Message {
        try JSONDecoder().decode(type, from: data)
    }
}
