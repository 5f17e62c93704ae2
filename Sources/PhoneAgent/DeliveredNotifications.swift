/// The centre's delivered notifications by id, with a journal of the ids changed since the
/// owner last looked: the mirror needs to know what an operation changed, and comparing the
/// whole collection before and after would copy it on every change.
public struct DeliveredNotifications: Sendable {
    /// The notifications of one app through one API: what the limit per app counts.
    struct Bucket: Hashable {
        var appName: String
        var rich: Bool

        init(_ notification: DeliveredNotification) {
            appName = notification.appName
            rich = notification.origin.rich != nil
        }

        init(appName: String, rich: Bool) {
            self.appName = appName
            self.rich = rich
        }
    }

    private var byID: [UInt32: DeliveredNotification] = [:]
    /// Each bucket's ids, least recently posted or updated first.
    private var byBucket: [Bucket: RecencyQueue] = [:]
    /// When each notification was last posted or updated, as a count: which entry in its
    /// bucket's queue is live, and which bucket's oldest is the oldest of all.
    private var stamps: [UInt32: UInt64] = [:]
    private var lastStamp: UInt64 = 0
    /// Changed ids, each with whether it was delivered before its first change.
    private var journal: [UInt32: Bool] = [:]

    /// An empty collection.
    public init() {}

    /// The notification with an id.
    public subscript(id: UInt32) -> DeliveredNotification? {
        get { byID[id] }
        set { updateIndex(id, from: store(newValue, id)) }
    }

    /// Removes a notification; returns it if it was there.
    @discardableResult
    mutating func removeValue(forKey id: UInt32) -> DeliveredNotification? {
        let old = store(nil, id)
        updateIndex(id, from: old)
        return old
    }

    /// Stores a notification; returns the one it replaced.
    @discardableResult
    mutating func updateValue(_ notification: DeliveredNotification, forKey id: UInt32) -> DeliveredNotification? {
        let old = store(notification, id)
        updateIndex(id, from: old)
        return old
    }

    /// How many notifications a bucket holds.
    func count(in bucket: Bucket) -> Int { byBucket[bucket]?.count ?? 0 }

    /// A bucket's notifications, least recently posted or updated first.
    func ids(in bucket: Bucket) -> [UInt32] { byBucket[bucket]?.ids(stamps: stamps) ?? [] }

    /// A bucket's notification posted or updated longest ago.
    mutating func oldest(in bucket: Bucket) -> UInt32? { byBucket[bucket]?.oldest(stamps: stamps) }

    /// The notification posted or updated longest ago, of any bucket: a look at each bucket's
    /// oldest, so as many steps as there are apps.
    mutating func oldestOverall() -> UInt32? {
        var oldest: (id: UInt32, stamp: UInt64)?
        for bucket in Array(byBucket.keys) {
            guard let id = byBucket[bucket]?.oldest(stamps: stamps), let stamp = stamps[id] else { continue }
            if oldest.map({ stamp < $0.stamp }) ?? true { oldest = (id, stamp) }
        }
        return oldest?.id
    }

    /// Sets the notification of `id`, noting the change; returns what was there.
    private mutating func store(_ notification: DeliveredNotification?, _ id: UInt32) -> DeliveredNotification? {
        note(id)
        guard let notification else { return byID.removeValue(forKey: id) }
        return byID.updateValue(notification, forKey: id)
    }

    /// Files `id` in its bucket after its notification changed from `old` to the one stored
    /// now: a new or updated one goes last (an app's progress notification, replaced again
    /// and again, is its newest, not its oldest), a removed one leaves.
    private mutating func updateIndex(_ id: UInt32, from old: DeliveredNotification?) {
        if byID[id] != nil {
            lastStamp += 1
            stamps[id] = lastStamp
        } else {
            stamps.removeValue(forKey: id)
        }
        if let before = old.map(Bucket.init) {
            byBucket[before]?.drop(stamps: stamps)
            if byBucket[before]?.count == 0 { byBucket.removeValue(forKey: before) }
        }
        if let after = byID[id].map(Bucket.init) { byBucket[after, default: RecencyQueue()].append(id, stamp: lastStamp) }
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
        for notification in notifications.sorted(by: { $0.id < $1.id }) {
            byID[notification.id] = notification
            lastStamp += 1
            stamps[notification.id] = lastStamp
            byBucket[Bucket(notification), default: RecencyQueue()].append(notification.id, stamp: lastStamp)
        }
    }
}
