/// The centre's delivered notifications by id, with a journal of the ids changed since the
/// owner last looked: the mirror needs to know what an operation changed, and comparing the
/// whole collection before and after would copy it on every change.
public struct DeliveredNotifications: Sendable {
    private var byID: [UInt32: DeliveredNotification] = [:]
    /// Changed ids, each with whether it was delivered before its first change.
    private var journal: [UInt32: Bool] = [:]

    /// An empty collection.
    public init() {}

    /// The notification with an id.
    public subscript(id: UInt32) -> DeliveredNotification? {
        get { byID[id] }
        set {
            note(id)
            byID[id] = newValue
        }
    }

    /// Removes a notification; returns it if it was there.
    @discardableResult
    mutating func removeValue(forKey id: UInt32) -> DeliveredNotification? {
        note(id)
        return byID.removeValue(forKey: id)
    }

    /// Stores a notification; returns the one it replaced.
    @discardableResult
    mutating func updateValue(_ notification: DeliveredNotification, forKey id: UInt32) -> DeliveredNotification? {
        note(id)
        return byID.updateValue(notification, forKey: id)
    }

    /// Every notification, in no particular order.
    public var values: Dictionary<UInt32, DeliveredNotification>.Values { byID.values }
    /// How many are delivered.
    public var count: Int { byID.count }

    /// The ids changed since the last call, each with whether it was delivered before, and
    /// an empty journal from here on.
    public mutating func takeChanges() -> [UInt32: Bool] {
        defer { journal.removeAll(keepingCapacity: true) }
        return journal
    }

    private mutating func note(_ id: UInt32) {
        if journal[id] == nil { journal[id] = byID[id] != nil }
    }

    /// Restored notifications: not changes.
    init(restoring notifications: [DeliveredNotification]) {
        for notification in notifications { byID[notification.id] = notification }
    }
}
