public import Foundation
import RelayCore
import RelayStore
import RelayWire

extension WearableLink {
    /// How many of the phone's scheduled requests the wearable holds.
    public var scheduleCount: Int { state.withLock { $0.replica.contents.schedules.count } }

    /// When the wearable would next fire one of the phone's scheduled requests by itself if the
    /// link stays down (or is down); `nil` when it holds none that will fire again.
    public func nextLocalFireDate(after now: Date) -> Date? {
        state.withLock { $0.replica.nextLocalFireDate() }.map { max($0, now) }
    }
}

/// The phone's scheduled requests as the wearable computes them: the model's own schedule
/// rules (Docs/MODEL.md) applied to the wire copy.
enum LocalSchedule {
    /// The fire dates of a wire copy; `nil` for a trigger or zone this wearable cannot read.
    static func plan(of schedule: Relay_V1_ScheduleUpsert) -> TriggerSchedule? {
        guard let trigger = try? NotificationTrigger(schedule.trigger),
            let zone = TimeZone(identifier: schedule.timeZone.isEmpty ? "UTC" : schedule.timeZone)
        else { return nil }
        return try? TriggerSchedule(trigger: trigger, scheduledAt: WireTime.date(schedule.scheduledAt), timeZone: zone)
    }
}
