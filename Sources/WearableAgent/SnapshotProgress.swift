/// How far a snapshot from the phone has come: what it has mentioned so far, so that at its
/// end whatever it did not mention goes (Docs/PROTOCOL.md §13.4).
///
/// A snapshot can span many reads, commits and connections, and the wearable can stop in the
/// middle of one; the progress is stored with the replica (`SnapshotProgressTable`) so that a
/// restarted wearable still ends the snapshot as one: nothing in it alerts, and what it did not
/// mention is removed.
public struct SnapshotProgress: Sendable, Hashable {
    /// The epoch of `SnapshotBegin`; only the `SnapshotEnd` of the same epoch ends it.
    public var epoch: UInt64
    /// Notification keys mentioned.
    public var notifications: Set<UInt64> = []
    /// Category keys mentioned.
    public var categories: Set<UInt32> = []
    /// App keys mentioned.
    public var apps: Set<UInt32> = []
    /// Scheduled request keys mentioned.
    public var schedules: Set<UInt64> = []

    /// A snapshot that has just begun.
    public init(epoch: UInt64) {
        self.epoch = epoch
    }

    /// One thing a snapshot mentioned.
    public enum Mention: Sendable, Hashable {
        /// A notification, by key.
        case notification(UInt64)
        /// A category, by key.
        case category(UInt32)
        /// An app, by key.
        case app(UInt32)
        /// A scheduled request, by key.
        case schedule(UInt64)
    }

    /// Adds a mention; false when it was mentioned already.
    @discardableResult
    public mutating func insert(_ mention: Mention) -> Bool {
        switch mention {
        case .notification(let key): notifications.insert(key).inserted
        case .category(let key): categories.insert(key).inserted
        case .app(let key): apps.insert(key).inserted
        case .schedule(let key): schedules.insert(key).inserted
        }
    }
}
