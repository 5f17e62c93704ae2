import RelayCore

/// What a peer may send beyond what protobuf itself checks: the ranges within which the
/// receiving side's stores and date arithmetic are safe. A log entry outside them is refused
/// whole (logged, its place in the log taken, nothing applied) instead of trapping the agent,
/// which would otherwise start again into the same stored entry.
public enum WireLimits {
    /// Timestamps (seconds since 1970 UTC) from the year 1 to the year 9999: what calendars
    /// compute with. Anything outside is no time a notification can have.
    public static let timestamps = ModelLimits.secondsSince1970
    /// Keys and revisions: SQLite stores them as signed 64-bit integers.
    public static let identifiers: ClosedRange<UInt64> = 0...UInt64(Int64.max)

    /// Why the phone's `change` cannot be applied; `nil` when it can.
    public static func problem(in change: Relay_V1_Change) -> String? {
        switch change.kind {
        case .upsert(let upsert):
            return identifier(upsert.key, "upsert.key") ?? identifier(upsert.revision, "upsert.revision")
                ?? timestamp(upsert.deliveredAt, "upsert.delivered_at")
                ?? (upsert.hasOccurrence ? problem(in: upsert.occurrence, "upsert.occurrence") : nil)
        case .remove(let remove):
            return identifier(remove.key, "remove.key") ?? identifier(remove.revision, "remove.revision")
        case .scheduleUpsert(let schedule):
            return identifier(schedule.key, "schedule_upsert.key") ?? identifier(schedule.revision, "schedule_upsert.revision")
                ?? timestamp(schedule.scheduledAt, "schedule_upsert.scheduled_at")
        case .scheduleRemove(let schedule):
            return identifier(schedule.key, "schedule_remove.key")
        case .preferences(let preferences):
            return preferences.problem
        case .snapshotBegin, .snapshotEnd, .settings, .appInfo, .categoryUpsert, .categoryRemove, nil:
            return nil
        }
    }

    /// Why the wearable's `event` cannot be applied; `nil` when it can.
    public static func problem(in event: Relay_V1_WearableEvent) -> String? {
        if let problem = timestamp(event.at, "event.at") { return problem }
        switch event.kind {
        case .response(let response):
            return identifier(response.notificationKey, "response.notification_key")
                ?? (response.hasOccurrence ? problem(in: response.occurrence, "response.occurrence") : nil)
        case .alerted(let alerted):
            return identifier(alerted.notificationKey, "alerted.notification_key")
                ?? identifier(alerted.revision, "alerted.revision")
        case .firedLocally(let fired):
            return identifier(fired.scheduleKey, "fired_locally.schedule_key")
                ?? timestamp(fired.fireDate, "fired_locally.fire_date")
        case .preferences(let preferences):
            return preferences.problem
        case nil:
            return nil
        }
    }

    private static func problem(in occurrence: Relay_V1_Occurrence, _ field: String) -> String? {
        identifier(occurrence.scheduleKey, "\(field).schedule_key") ?? timestamp(occurrence.fireDate, "\(field).fire_date")
    }

    private static func identifier(_ value: UInt64, _ field: String) -> String? {
        identifiers.contains(value) ? nil : "\(field) \(value) is over \(identifiers.upperBound)"
    }

    private static func timestamp(_ value: Int64, _ field: String) -> String? {
        timestamps.contains(value) ? nil : "\(field) \(value) is not a time between the years 1 and 9999"
    }
}
