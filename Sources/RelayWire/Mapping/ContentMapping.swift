public import Foundation
public import RelayCore

extension Relay_V1_Content {
    /// The wire form of content. The phone passes the keys it assigned to the content's
    /// category and thread (0 for none). User info stays on the phone (responses are matched to
    /// it there), but for the freedesktop category hint; attachments travel as references
    /// to content hashes, which the caller computes because it owns the files.
    public init(
        _ content: NotificationContent, categoryKey: UInt32 = 0, threadKey: UInt32 = 0,
        attachments: [Relay_V1_AttachmentRef] = []
    ) {
        self.init()
        title = content.title
        subtitle = content.subtitle
        body = content.body
        if let badge = content.badge { self.badge = UInt32(clamping: badge) }
        switch content.sound {
        case nil:
            sound = .none
        case .default?:
            sound = .default
        case .named(let name)?:
            sound = .named
            soundName = name
        }
        self.categoryKey = categoryKey
        self.threadKey = threadKey
        self.attachments = attachments
        interruptionLevel = Relay_V1_InterruptionLevel(content.interruptionLevel)
        summaryArgument = content.summaryArgument
        summaryArgumentCount = UInt32(clamping: content.summaryArgumentCount)
        if let category = content.freedesktopCategory { freedesktopCategory = category.truncated(toUTF8Bytes: 64) }
    }
}

extension NotificationContent {
    /// Content from the wire, as the wearable holds it: category and thread identifiers
    /// are the phone's keys in decimal (`WireKey.identifier`), attachments `sha256:<hex>`
    /// URLs naming the wearable's cached copy. The result still has to pass
    /// `validate(as:)`: the peer is not trusted.
    public init(_ wire: Relay_V1_Content) {
        let sound: NotificationSound? =
            switch wire.sound {
            case .none: nil
            case .default, .UNRECOGNIZED: .default
            case .named: wire.soundName.isEmpty ? .default : .named(wire.soundName)
            }
        self.init(
            title: wire.title, subtitle: wire.subtitle, body: wire.body,
            badge: wire.hasBadge ? Int(wire.badge) : nil,
            sound: sound,
            categoryIdentifier: WireKey.identifier(wire.categoryKey),
            threadIdentifier: WireKey.identifier(wire.threadKey),
            attachments: wire.attachments.map {
                NotificationAttachment(identifier: $0.identifier, url: "sha256:" + $0.sha256.hexString, type: $0.type)
            },
            interruptionLevel: InterruptionLevel(wire.interruptionLevel),
            summaryArgument: wire.summaryArgument,
            summaryArgumentCount: Int(wire.summaryArgumentCount))
        if !wire.freedesktopCategory.isEmpty {
            userInfo[NotificationContent.freedesktopCategoryKey] = .string(wire.freedesktopCategory.truncated(toUTF8Bytes: 64))
        }
    }
}

extension Relay_V1_InterruptionLevel {
    /// The wire value of a level.
    public init(_ level: InterruptionLevel) {
        switch level {
        case .passive: self = .passive
        case .active: self = .active
        case .timeSensitive: self = .timeSensitive
        case .critical: self = .critical
        }
    }
}

extension InterruptionLevel {
    /// The level of a wire value; values from a newer peer read as `active`.
    public init(_ wire: Relay_V1_InterruptionLevel) {
        switch wire {
        case .passive: self = .passive
        case .timeSensitive: self = .timeSensitive
        case .critical: self = .critical
        case .active, .UNRECOGNIZED: self = .active
        }
    }
}

extension Relay_V1_Response {
    /// The wire form of a response; its date travels in the enclosing event.
    /// The notification is named by its key: on the wearable, its identifier is the key in decimal.
    public init(_ response: NotificationResponse) {
        self.init()
        notificationKey = WireKey.key(response.notificationIdentifier) ?? 0
        action = response.action.identifier
        if let text = response.userText { userText = text }
    }
}

extension NotificationResponse {
    /// A response from the wire, dated by its event.
    public init(_ wire: Relay_V1_Response, date: Date) {
        self.init(
            notificationIdentifier: WireKey.identifier(wire.notificationKey), action: ResponseAction(identifier: wire.action),
            userText: wire.hasUserText ? wire.userText : nil, date: date)
    }
}

extension Data {
    /// Lower-case hexadecimal, as used in attachment URLs and key fingerprints.
    public var hexString: String {
        map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
        }.joined()
    }
}

/// Whole seconds since 1970, the wire's time unit.
public enum WireTime {
    /// A date as whole seconds since 1970-01-01 UTC.
    public static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The date of a wire timestamp.
    public static func date(_ seconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

/// The phone's keys as the wearable's identifiers: the key in decimal, "" for key 0.
public enum WireKey {
    /// The identifier the wearable uses for a key.
    public static func identifier<Key: FixedWidthInteger>(_ key: Key) -> String {
        key == 0 ? "" : String(key)
    }

    /// The key an identifier stands for, if it is one.
    public static func key(_ identifier: String) -> UInt64? {
        UInt64(identifier).flatMap { $0 == 0 ? nil : $0 }
    }

    /// Keys from 2^31 to 2^32 − 1 are the wearable's own, which the phone never assigns (its
    /// counters stay below 2^31; Docs/PROTOCOL.md, "Keys"): the notification the wearable shows for
    /// a scheduled request it fired by itself. They fit the 32-bit ids of the control sockets.
    static let localBit: UInt64 = 1 << 31

    /// The key of the wearable's own notification for scheduled request `scheduleKey` (below
    /// 2^31); one per request, as a repeating request's occurrences replace each other.
    public static func localOccurrence(scheduleKey: UInt64) -> UInt64 {
        localBit | (scheduleKey & (localBit - 1))
    }

    /// The scheduled request's key, when `key` is one of the wearable's own.
    public static func scheduleKey(ofLocal key: UInt64) -> UInt64? {
        key >> 31 == 1 ? key & (localBit - 1) : nil
    }
}
