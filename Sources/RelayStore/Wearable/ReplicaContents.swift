public import RelayWire

/// A notification in the wearable's replica, in the phone's wire terms.
public struct ReplicaRecord: Sendable, Hashable {
    /// The phone's key.
    public var key: UInt64
    /// The revision last applied.
    public var revision: UInt64
    /// The posting app's key.
    public var appKey: UInt32
    /// What it says.
    public var content: Relay_V1_Content
    /// When the phone delivered it, seconds since 1970 UTC.
    public var deliveredAt: Int64
    /// Whether the wearable alerted for it.
    public var alerted: Bool

    /// Creates a record.
    public init(key: UInt64, revision: UInt64, appKey: UInt32, content: Relay_V1_Content, deliveredAt: Int64, alerted: Bool) {
        self.key = key
        self.revision = revision
        self.appKey = appKey
        self.content = content
        self.deliveredAt = deliveredAt
        self.alerted = alerted
    }
}

/// Everything the wearable holds of the phone's centre.
public struct ReplicaContents: Sendable, Hashable {
    /// Shown notifications by key.
    public var notifications: [UInt64: ReplicaRecord] = [:]
    /// Removed notifications: key → the revision of the removal. An upsert at or below it
    /// is stale and ignored.
    public var tombstones: [UInt64: UInt64] = [:]
    /// App names by key.
    public var apps: [UInt32: String] = [:]
    /// Categories by key.
    public var categories: [UInt32: Relay_V1_CategoryUpsert] = [:]
    /// The phone's settings.
    public var settings = Relay_V1_Settings()
    /// The phone's scheduled requests, by key: fired here while the phone is away.
    public var schedules: [UInt64: Relay_V1_ScheduleUpsert] = [:]

    /// An empty replica.
    public init() {}
}
