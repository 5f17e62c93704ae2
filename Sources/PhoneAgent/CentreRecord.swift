public import Foundation
import RelayCore
import RelayFreedesktop

/// A delivered notification as the phone's database keeps it, so that the centre (and the
/// answers to its apps) survive a restart of relay-phone. JSON, so that a field added later
/// is simply absent in older records.
///
/// The expiry is kept as a wall-clock date (the centre's monotonic instants mean nothing
/// after a restart): a notification restored after its time expires at once.
public struct CentreRecord: Codable, Sendable, Hashable {
    /// The centre id.
    public private(set) var id: UInt32
    var appName: String
    var content: NotificationContent
    var actionKeys: [String]
    var actionLabels: [String]
    var sender: String?
    var resident: Bool
    var acceptsReply: Bool
    var rich: RichRecord?
    /// When it was delivered, for the wearable.
    public var deliveredAt: Date
    /// When it expires (`expire_timeout`); `nil` for never, and in records written before
    /// expiries were kept.
    public var expiresAt: Date?

    struct RichRecord: Codable, Sendable, Hashable {
        var appID: String
        var identifier: String
        var trigger: NotificationTrigger?
        var date: Date
        var category: NotificationCategory?
        /// Absent for posted notifications and in records written before occurrences were kept.
        var occurrence: ScheduledOccurrence?
    }

    /// The record of a notification; its expiry is turned into a wall-clock date by the two
    /// clocks' readings at `now`.
    public init(
        _ notification: DeliveredNotification, deliveredAt: Date, now: (wall: Date, monotonic: ContinuousClock.Instant)
    ) {
        expiresAt = notification.expiresAt.map { now.wall.addingTimeInterval(Self.seconds(now.monotonic.duration(to: $0))) }
        id = notification.id
        appName = notification.appName
        content = notification.content
        actionKeys = notification.actions.map(\.key)
        actionLabels = notification.actions.map(\.label)
        sender = notification.sender
        resident = notification.resident
        acceptsReply = notification.acceptsReply
        rich = notification.origin.rich.map {
            RichRecord(
                appID: $0.appID, identifier: $0.identifier, trigger: $0.trigger, date: $0.date, category: $0.category,
                occurrence: $0.occurrence)
        }
        self.deliveredAt = deliveredAt
    }

    /// The notification again, its expiry (if any) counted from the two clocks' readings at `now`.
    public func notification(now: (wall: Date, monotonic: ContinuousClock.Instant)) -> DeliveredNotification {
        var notification = DeliveredNotification(restoring: self)
        notification.expiresAt = expiresAt.map { now.monotonic.advanced(by: .seconds(max(0, $0.timeIntervalSince(now.wall)))) }
        return notification
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The record as stored: JSON, written directly for the common freedesktop record and by
    /// `JSONEncoder` for the rest (the same form either way).
    public func encoded() -> Data {
        if let direct = directJSON() { return direct }
        // Every field is a plain value; encoding cannot fail.
        return (try? Self.encoder.encode(self)) ?? Data()
    }

    /// The record as `JSONEncoder` writes it, whatever its kind (for tests comparing both writers).
    func encodedByJSONEncoder() -> Data {
        (try? Self.encoder.encode(self)) ?? Data()
    }

    /// A stored record.
    public static func decode(_ data: Data) throws -> CentreRecord {
        try JSONDecoder().decode(CentreRecord.self, from: data)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}

extension DeliveredNotification {
    init(restoring record: CentreRecord) {
        id = record.id
        appName = record.appName
        content = record.content
        actions = zip(record.actionKeys, record.actionLabels).map { PostedNotification.Action(key: $0, label: $1) }
        sender = record.sender
        resident = record.resident
        acceptsReply = record.acceptsReply
        expiresAt = nil
        origin = record.rich.map {
            .rich(
                RichSource(
                    appID: $0.appID, identifier: $0.identifier, trigger: $0.trigger, date: $0.date, category: $0.category,
                    occurrence: $0.occurrence))
        } ?? .freedesktop
    }
}
