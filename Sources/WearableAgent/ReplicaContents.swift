public import RelayCore
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
    /// The occurrence of a scheduled request it shows, if a schedule fired it.
    public var occurrence: Relay_V1_Occurrence?
    /// Whether the user answered this revision on the wearable (an action, a reply, a
    /// dismissal): it is held until the phone removes or updates it, but not shown again.
    public var answered: Bool
    /// Whether the phone can carry out its default action (a click on it): "Open on phone".
    public var defaultAction: Bool

    /// Creates a record.
    public init(
        key: UInt64, revision: UInt64, appKey: UInt32, content: Relay_V1_Content, deliveredAt: Int64, alerted: Bool,
        occurrence: Relay_V1_Occurrence? = nil, answered: Bool = false, defaultAction: Bool = false
    ) {
        self.defaultAction = defaultAction
        self.key = key
        self.revision = revision
        self.appKey = appKey
        self.content = content
        self.deliveredAt = deliveredAt
        self.alerted = alerted
        self.occurrence = occurrence
        self.answered = answered
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
    /// Which occurrences of those the wearable has handled, and which it fired by itself.
    public var firing = LocalFiringState()
    /// The snapshot being received, if one began and has not ended.
    public var snapshot: SnapshotProgress?
    /// The wishes shared with the phone: its manual do not disturb, the quiet hours, the mutes.
    public var preferences = SharedPreferences()
    /// The wearable's own do not disturb, when it is not shared with the phone
    /// (`do_not_disturb.shared = false`): only its manual do not disturb is used.
    public var ownDoNotDisturb = SharedPreferences()

    /// An empty replica.
    public init() {}
}

/// What the wearable knows of the occurrences of the phone's scheduled requests (Docs/PHONE.md,
/// "Out of range"). Times are seconds since 1970 UTC by the wearable's clock.
public struct LocalFiringState: Sendable, Hashable {
    /// Occurrences at or before this instant are the phone's: the link was up until then.
    public var floor: Int64 = 0
    /// Per request key: the latest occurrence handled, fired here or received from the phone.
    public var handledThrough: [UInt64: Int64] = [:]
    /// Per request key: the latest occurrence fired here that the phone's notification has not
    /// replaced yet.
    public var unreconciled: [UInt64: Int64] = [:]

    /// Nothing handled yet.
    public init() {}
}

extension ReplicaContents {
    /// The name of the app `key` stands for, as the screens and mutes name it.
    func appName(_ key: UInt32) -> String { apps[key] ?? "App \(key)" }
}
