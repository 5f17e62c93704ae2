public import Foundation
import RelayCore
import RelayStore
import RelayWire

extension WearableLink {
    /// How many of the phone's scheduled requests the wearable holds.
    public var scheduleCount: Int { state.withLock { $0.replica.contents.schedules.count } }

    /// When the wearable would next fire one of the phone's scheduled requests by itself,
    /// after `now`; `nil` when it holds none that will fire again.
    public func nextLocalFireDate(after now: Date) -> Date? {
        let schedules = state.withLock { Array($0.replica.contents.schedules.values) }
        return schedules.compactMap { LocalSchedule.nextFireDate(of: $0, after: now) }.min()
    }
}

/// The phone's scheduled requests as the wearable computes them: the model's own schedule
/// rules (Docs/MODEL.md) applied to the wire copy.
enum LocalSchedule {
    static func nextFireDate(of schedule: Relay_V1_ScheduleUpsert, after now: Date) -> Date? {
        guard let trigger = try? NotificationTrigger(schedule.trigger),
            let zone = TimeZone(identifier: schedule.timeZone.isEmpty ? "UTC" : schedule.timeZone),
            let plan = try? TriggerSchedule(trigger: trigger, scheduledAt: WireTime.date(schedule.scheduledAt), timeZone: zone)
        else { return nil }
        return plan.nextFireDate(after: now)
    }
}
