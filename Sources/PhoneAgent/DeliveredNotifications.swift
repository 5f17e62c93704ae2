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
    /// Where each delivered id is filed: its bucket, and when it was last posted or updated, as
    /// a count (which entry in its bucket's queue is live, and which bucket's oldest is the
    /// oldest of all). Kept beside the notifications so that filing one never copies one.
    private var places: [UInt32: Place] = [:]
    private var lastStamp: UInt64 = 0
    /// Changed ids, each with whether it was delivered before its first change.
    private var journal: [UInt32: Bool] = [:]

    private struct Place {
        var bucket: Bucket
        var stamp: UInt64
    }

    /// An empty collection.
    public init() {}

    /// The notification with an id.
    public subscript(id: UInt32) -> DeliveredNotification? {
        get { byID[id] }
        set { store(newValue, id) }
    }

    /// Whether a notification with the id is delivered.
    public func contains(_ id: UInt32) -> Bool { places.index(forKey: id) != nil }

    /// Whether the notification with the id is delivered and came through the freedesktop API
    /// (the freedesktop calls and signals concern only those).
    public func isFreedesktop(_ id: UInt32) -> Bool {
        guard let index = byID.index(forKey: id), case .freedesktop = byID.values[index].origin else { return false }
        return true
    }

    /// Removes a notification; returns it if it was there.
    @discardableResult
    mutating func removeValue(forKey id: UInt32) -> DeliveredNotification? {
        store(nil, id)
    }

    /// Stores a notification; returns the one it replaced.
    @discardableResult
    mutating func updateValue(_ notification: DeliveredNotification, forKey id: UInt32) -> DeliveredNotification? {
        store(notification, id)
    }

    /// How many notifications a bucket holds.
    func count(in bucket: Bucket) -> Int { byBucket[bucket]?.count ?? 0 }

    /// A bucket's notifications, least recently posted or updated first.
    func ids(in bucket: Bucket) -> [UInt32] {
        let places = places
        return byBucket[bucket]?.ids { places[$0]?.stamp == $1 } ?? []
    }

    /// A bucket's notification posted or updated longest ago.
    mutating func oldest(in bucket: Bucket) -> UInt32? {
        let places = places
        return byBucket[bucket]?.oldest { places[$0]?.stamp == $1 }
    }

    /// The notification posted or updated longest ago, of any bucket: a look at each bucket's
    /// oldest, so as many steps as there are apps.
    mutating func oldestOverall() -> UInt32? {
        var found: (id: UInt32, stamp: UInt64)?
        for bucket in Array(byBucket.keys) {
            guard let id = oldest(in: bucket), let stamp = places[id]?.stamp else { continue }
            if found.map({ stamp < $0.stamp }) ?? true { found = (id, stamp) }
        }
        return found?.id
    }

    /// Sets the notification of `id`, noting the change, and files it in its bucket: a new or
    /// updated one goes last (an app's progress notification, replaced again and again, is its
    /// newest, not its oldest), a removed one leaves. Returns what was there.
    @discardableResult
    private mutating func store(_ notification: DeliveredNotification?, _ id: UInt32) -> DeliveredNotification? {
        let before = places[id]
        if journal[id] == nil { journal[id] = before != nil }
        let old: DeliveredNotification?
        if let notification {
            old = byID.updateValue(notification, forKey: id)
            lastStamp += 1
            let bucket = Bucket(notification)
            places[id] = Place(bucket: bucket, stamp: lastStamp)
            if let before { leave(before.bucket) }
            byBucket[bucket, default: RecencyQueue()].append(id, stamp: lastStamp)
        } else {
            old = byID.removeValue(forKey: id)
            places.removeValue(forKey: id)
            if let before { leave(before.bucket) }
        }
        return old
    }

    /// One of a bucket's ids left it (removed, or filed anew); `places` already says so.
    private mutating func leave(_ bucket: Bucket) {
        guard let index = byBucket.index(forKey: bucket) else { return }
        let places = places
        byBucket.values[index].drop { places[$0]?.stamp == $1 }
        if byBucket.values[index].count == 0 { byBucket.remove(at: index) }
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

    /// Restored notifications: not changes.
    init(restoring notifications: [DeliveredNotification]) {
        for notification in notifications.sorted(by: { $0.id < $1.id }) {
            byID[notification.id] = notification
            lastStamp += 1
            let bucket = Bucket(notification)
            places[notification.id] = Place(bucket: bucket, stamp: lastStamp)
            byBucket[bucket, default: RecencyQueue()].append(notification.id, stamp: lastStamp)
        }
    }
}
