public import Foundation
import RelayCore
import RelayWire

/// The wearable fires the phone's scheduled requests by itself while the devices are apart, and
/// hands each occurrence back to the phone's notification for it on reconnect (Docs/PHONE.md,
/// "Out of range").
///
/// The rule, by the wearable's clock: an occurrence is the wearable's to fire when it falls after
/// the *floor* (the last moment the link was up) and after the latest occurrence of that request
/// already handled, and is due. Occurrences are identified by request and fire date, so a clock
/// stepped back never fires one twice (it is at or before what was handled), and a clock stepped
/// forward records every occurrence it passed but shows and alerts only the latest, as a repeating
/// request's occurrences replace each other. Calendar triggers are read in the request's time
/// zone, so a change of the wearable's own zone moves no occurrence.
extension Replica {
    /// At most this many occurrences of one request are recorded at once (after a long sleep).
    static let occurrencesPerStep = 10_000
    /// Occurrences older than this when they are found due are passed over, not recorded: a
    /// clock stepped a year ahead would otherwise record (and report to the phone) every one of
    /// a year's occurrences, half a million for a request each minute. Both devices keep a
    /// week of occurrences (`OccurrenceTable`); only the latest is ever shown.
    static let recordedWindow: TimeInterval = 7 * 86_400

    /// How far ahead of the clock the firing marks (the floor, the occurrences handled) may be
    /// and still be kept. A clock stepped back by up to this (NTP) keeps them, so nothing fires
    /// twice; one stepped back by more was wrong before (a bad RTC, a wrong NTP answer), and
    /// its marks would stop all firing here until real time caught up with them.
    static let bogusFutureSlack: TimeInterval = 86_400

    /// The link went up or down at `now`: occurrences up to then are the phone's.
    public mutating func linkChanged(at now: Date) -> [ReplicaEffect] {
        let corrections = forgetBogusFuture(at: now)
        let seconds = WireTime.seconds(now)
        guard seconds > contents.firing.floor else { return corrections }
        contents.firing.floor = seconds
        return corrections + [.firingFloor(seconds)]
    }

    /// Brings firing marks set by a clock that was far ahead back to `now`.
    private mutating func forgetBogusFuture(at now: Date) -> [ReplicaEffect] {
        let limit = WireTime.seconds(now.addingTimeInterval(Self.bogusFutureSlack))
        let seconds = WireTime.seconds(now)
        var effects: [ReplicaEffect] = []
        if contents.firing.floor > limit {
            contents.firing.floor = seconds
            effects.append(.firingFloor(seconds))
        }
        for (key, through) in contents.firing.handledThrough.sorted(by: { $0.key < $1.key }) where through > limit {
            contents.firing.handledThrough[key] = seconds
            effects.append(.handled(scheduleKey: key, through: seconds))
        }
        return effects
    }

    /// The earliest occurrence the wearable would fire by itself, if the link stays down; it may
    /// be at or before `now` (due at once). `nil` when no request will fire again.
    public func nextLocalFireDate() -> Date? {
        contents.schedules.compactMap { key, schedule in
            LocalSchedule.plan(of: schedule)?.nextFireDate(after: handledUntil(key))
        }.min()
    }

    /// Fires every occurrence due at `context.now` (the caller checked that the link is down):
    /// each is recorded and reported to the phone; the latest of each request is shown, under
    /// the wearable's own key for that request, and alerts as the alert policy decides.
    public mutating func fireDue(context: AlertContext) -> [ReplicaEffect] {
        var context = context.with(contents)
        let now = context.now
        var effects = forgetBogusFuture(at: now)
        for key in contents.schedules.keys.sorted() {
            guard let schedule = contents.schedules[key], let plan = LocalSchedule.plan(of: schedule) else { continue }
            var dates: [Int64] = []
            var cursor = max(handledUntil(key), now.addingTimeInterval(-Self.recordedWindow))
            while dates.count < Self.occurrencesPerStep, let next = plan.nextFireDate(after: cursor), next <= now {
                dates.append(WireTime.seconds(next))
                cursor = next
            }
            guard let latest = dates.last else { continue }
            let decision = AlertDecision.policy(
                level: InterruptionLevel(schedule.content.interruptionLevel), app: contents.appName(schedule.appKey),
                thread: AlertDecision.thread(schedule.content.threadKey), rule: Self.rule(of: schedule), silent: contents.settings.silent,
                context: context)
            let alerts = decision.outcome.alerts
            // Two requests due at once buzz once: the second is within the gap of the first.
            if alerts {
                context.memory.alerted(app: contents.appName(schedule.appKey), thread: AlertDecision.thread(schedule.content.threadKey), at: now)
            }
            for date in dates {
                var fired = Relay_V1_FiredLocally()
                fired.scheduleKey = key
                fired.fireDate = date
                fired.alerted = alerts && date == latest
                effects += [.firedHere(scheduleKey: key, fireDate: date, alerted: fired.alerted), .report(.firedLocally(fired))]
            }
            contents.firing.handledThrough[key] = latest
            contents.firing.unreconciled[key] = latest
            var occurrence = Relay_V1_Occurrence()
            occurrence.scheduleKey = key
            occurrence.fireDate = latest
            let local = WireKey.localOccurrence(scheduleKey: key)
            let record = ReplicaRecord(
                key: local, revision: 0, appKey: schedule.appKey, content: schedule.content, deliveredAt: latest,
                alerted: alerts, occurrence: occurrence)
            contents.notifications[local] = record
            contents.tombstones.removeValue(forKey: local)
            effects += [
                .handled(scheduleKey: key, through: latest), .stored(record, alert: alerts),
                .decided(
                    key: local, revision: 0, app: contents.appName(schedule.appKey), alerted: alerts,
                    reason: "fired here while apart; " + decision.reason.description, at: WireTime.seconds(now)),
            ]
        }
        return effects
    }

    /// The phone's filter rule that matched a scheduled request, if one did.
    static func rule(of schedule: Relay_V1_ScheduleUpsert) -> MatchedRule? {
        if !schedule.alwaysAlertRule.isEmpty { return MatchedRule(name: schedule.alwaysAlertRule.truncated(toUTF8Bytes: 256), action: .alwaysAlert) }
        if !schedule.silentRule.isEmpty { return MatchedRule(name: schedule.silentRule.truncated(toUTF8Bytes: 256), action: .silent) }
        return nil
    }

    /// How many occurrences fired here wait for the phone's notification to replace them.
    public var unreconciledRequests: Int { contents.firing.unreconciled.count }

    /// The phone's notification for occurrence `occurrence` arrived: it replaces the wearable's
    /// own copy (if that shows the same or an earlier occurrence). Returns whether the wearable
    /// fired this occurrence, or a later one, itself — then the phone's copy does not alert.
    /// `answeredHere`: the user answered the wearable's copy of this very occurrence, whose answer
    /// is on its way to the phone; the phone's copy is then not shown either.
    mutating func reconcile(_ occurrence: Relay_V1_Occurrence) -> (effects: [ReplicaEffect], firedHere: Bool, answeredHere: Bool) {
        let key = occurrence.scheduleKey
        var effects: [ReplicaEffect] = []
        var answeredHere = false
        let local = WireKey.localOccurrence(scheduleKey: key)
        if let record = contents.notifications[local], (record.occurrence?.fireDate ?? .min) <= occurrence.fireDate {
            answeredHere = record.answered && record.occurrence?.fireDate == occurrence.fireDate
            contents.notifications.removeValue(forKey: local)
            effects.append(.removed(key: local, revision: 0))
        }
        let firedHere = (contents.firing.unreconciled[key] ?? .min) >= occurrence.fireDate
        if let latest = contents.firing.unreconciled[key] {
            if latest <= occurrence.fireDate { contents.firing.unreconciled.removeValue(forKey: key) }
            effects.append(.reconciled(scheduleKey: key, through: occurrence.fireDate))
        }
        if occurrence.fireDate > contents.firing.handledThrough[key] ?? .min {
            contents.firing.handledThrough[key] = occurrence.fireDate
            effects.append(.handled(scheduleKey: key, through: occurrence.fireDate))
        }
        return (effects, firedHere, answeredHere)
    }

    /// The phone withdrew the wearable's own copy of an occurrence (the app removed the request
    /// while the devices were apart).
    mutating func withdrawLocal(scheduleKey key: UInt64) -> [ReplicaEffect] {
        var effects: [ReplicaEffect] = []
        let local = WireKey.localOccurrence(scheduleKey: key)
        if contents.notifications.removeValue(forKey: local) != nil {
            effects.append(.removed(key: local, revision: 0))
        }
        if contents.firing.unreconciled.removeValue(forKey: key) != nil {
            effects.append(.reconciled(scheduleKey: key, through: .max))
        }
        return effects
    }

    /// Occurrences of request `key` at or before this are handled: the whole second of the
    /// floor or of the latest occurrence handled, since an occurrence is known by its second
    /// (an interval need not be whole seconds, so its fire dates need not be either).
    private func handledUntil(_ key: UInt64) -> Date {
        let second = max(contents.firing.floor, contents.firing.handledThrough[key] ?? .min)
        guard second < .max else { return .distantFuture }
        return Date(timeIntervalSince1970: TimeInterval(second + 1).nextDown)
    }
}
