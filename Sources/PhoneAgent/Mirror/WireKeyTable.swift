/// The small keys the phone assigns for the wire (Docs/PROTOCOL.md, "Keys"): one counter
/// per kind, and a name → key table per kind so that the same app, thread or category keeps
/// its key for the life of the database.
public struct WireKeyTable: Sendable, Hashable {
    /// What a key names.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A posting app, by name.
        case app
        /// A thread, by app and thread identifier.
        case thread
        /// A category, by app and category signature.
        case category
        /// Notification keys are not named; only their counter is kept here.
        case notification
        /// A scheduled request, by app and request identifier.
        case schedule
    }

    /// A key assigned by this table, to persist.
    public struct Assignment: Sendable, Hashable {
        /// Its kind.
        public var kind: Kind
        /// What it names (for notifications, the counter's name).
        public var name: String
        /// The key.
        public var key: UInt64
    }

    private var keys: [Kind: [String: UInt64]] = [:]
    private var highest: [Kind: UInt64] = [:]

    /// A table restored from storage (`PhoneSchema.loadKeys`).
    public init(stored: [String: [String: UInt64]] = [:]) {
        for (kindName, names) in stored {
            guard let kind = Kind(rawValue: kindName) else { continue }
            keys[kind] = names
            highest[kind] = names.values.max() ?? 0
        }
    }

    /// The key of a name, assigning the next one if it has none; `assigned` collects new ones.
    public mutating func key(_ kind: Kind, _ name: String, assigned: inout [Assignment]) -> UInt64 {
        if let key = keys[kind]?[name] { return key }
        let key = (highest[kind] ?? 0) + 1
        highest[kind] = key
        keys[kind, default: [:]][name] = key
        assigned.append(Assignment(kind: kind, name: name, key: key))
        return key
    }

    /// How many notification keys one stored counter reserves.
    static let notificationKeysReserved: UInt64 = 64

    /// A fresh notification key: never handed out before in this database.
    ///
    /// The stored counter is the end of a reserved range, moved once every
    /// `notificationKeysReserved` keys rather than with every notification: a write fewer for
    /// most notifications. After a restart keys go on from the end of the range, so what a crash
    /// costs is a gap in the numbers, never a key handed out twice.
    public mutating func nextNotificationKey(assigned: inout [Assignment]) -> UInt64 {
        let key = (highest[.notification] ?? 0) + 1
        highest[.notification] = key
        let reserved = keys[.notification]?["counter"] ?? 0
        if key > reserved {
            let end = key + Self.notificationKeysReserved - 1
            keys[.notification, default: [:]]["counter"] = end
            assigned.append(Assignment(kind: .notification, name: "counter", key: end))
        }
        return key
    }

    /// How far `skipAhead` moves the counters: more keys than any one commit hands out.
    static let keysSkippedAfterLoss: UInt64 = 1 << 20

    /// Moves the counters of the keys the wearable reports back (notifications and scheduled
    /// requests) far past every key handed out, for after a power cut that may have lost
    /// commits the wearable saw: a key from a lost commit is never handed out again, so a
    /// report about it can never be taken for a newer notification or request.
    ///
    /// The schedule counter is kept under a name no request has (names hold U+001F).
    public mutating func skipAhead(assigned: inout [Assignment]) {
        let notificationEnd = max(highest[.notification] ?? 0, keys[.notification]?["counter"] ?? 0) + Self.keysSkippedAfterLoss
        highest[.notification] = notificationEnd
        keys[.notification, default: [:]]["counter"] = notificationEnd
        assigned.append(Assignment(kind: .notification, name: "counter", key: notificationEnd))
        let scheduleFloor = (highest[.schedule] ?? 0) + Self.keysSkippedAfterLoss
        highest[.schedule] = scheduleFloor
        keys[.schedule, default: [:]][Self.scheduleFloorName] = scheduleFloor
        assigned.append(Assignment(kind: .schedule, name: Self.scheduleFloorName, key: scheduleFloor))
    }

    /// The schedule kind's counter after `skipAhead`; not a request's name (those hold U+001F).
    static let scheduleFloorName = "floor"

    /// The key of a name, if it has one.
    public func existingKey(_ kind: Kind, _ name: String) -> UInt64? {
        keys[kind]?[name]
    }

    /// The name a key of a kind was assigned to.
    public func name(of key: UInt64, _ kind: Kind) -> String? {
        keys[kind]?.first { $0.value == key }?.key
    }
}
