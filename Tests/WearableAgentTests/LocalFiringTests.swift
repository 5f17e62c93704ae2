import Foundation
import RelayCore
import RelayStore
import RelayWire
import Testing

@testable import WearableAgent

/// The wearable firing the phone's schedule while apart, with time passed in (Replica+LocalFiring).
@Suite("Replica: firing while apart")
struct LocalFiringTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)  // whole seconds, as on the wire

    static func repeating(_ key: UInt64, every seconds: Double, from scheduledAt: Date, title: String = "Stretch") -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.scheduleUpsert.key = key
        change.scheduleUpsert.revision = 1
        change.scheduleUpsert.appKey = 1
        change.scheduleUpsert.content.title = title
        change.scheduleUpsert.trigger.repeats = true
        change.scheduleUpsert.trigger.intervalSeconds = seconds
        change.scheduleUpsert.scheduledAt = WireTime.seconds(scheduledAt)
        change.scheduleUpsert.timeZone = "UTC"
        return change
    }

    /// The phone's notification for an occurrence, as its log carries it.
    static func phoneOccurrence(key: UInt64, revision: UInt64, schedule: UInt64, fireDate: Int64) -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.upsert.key = key
        change.upsert.revision = revision
        change.upsert.appKey = 1
        change.upsert.content.title = "Stretch"
        change.upsert.mayAlert = true
        change.upsert.deliveredAt = fireDate
        change.upsert.occurrence.scheduleKey = schedule
        change.upsert.occurrence.fireDate = fireDate
        return change
    }

    static func fired(_ effects: [ReplicaEffect]) -> [(date: Int64, alerted: Bool)] {
        effects.compactMap { if case .firedHere(_, let date, let alerted) = $0 { (date, alerted) } else { nil } }
    }

    static func alerts(_ effects: [ReplicaEffect]) -> [Bool] {
        effects.compactMap { if case .stored(_, let alert) = $0 { alert } else { nil } }
    }

    @Test("the phone's copy of an occurrence the user answered here while apart is not shown either")
    func answeredHereStaysAnswered() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 60, from: Self.start))
        _ = replica.linkChanged(at: Self.start.addingTimeInterval(1))
        let fireDate = WireTime.seconds(Self.start) + 60
        #expect(Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(61))).map(\.date) == [fireDate])
        let local = WireKey.localOccurrence(scheduleKey: 7)
        #expect(replica.answer(local) == [.answered(key: local)])

        let effects = replica.apply(Self.phoneOccurrence(key: 40, revision: 1, schedule: 7, fireDate: fireDate))
        let events = ReplicaPresentation.events(for: effects, in: replica.contents)
        #expect(events.allSatisfy { if case .upsert = $0 { false } else { true } }, "\(events)")
        #expect(replica.contents.notifications[40]?.answered == true)
        // A later occurrence from the phone is new to the user.
        let later = replica.apply(Self.phoneOccurrence(key: 41, revision: 1, schedule: 7, fireDate: fireDate + 60))
        #expect(replica.contents.notifications[41]?.answered == false)
        #expect(ReplicaPresentation.events(for: later, in: replica.contents).contains { if case .upsert = $0 { true } else { false } })
    }

    @Test("an interval that is not whole seconds fires each occurrence once, apart and while the link is up")
    func fractionalInterval() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 90.5, from: Self.start))
        _ = replica.linkChanged(at: Self.start.addingTimeInterval(1))
        var firedHere: [Int64] = []
        var step = Self.start
        while step < Self.start.addingTimeInterval(5 * 90.5 + 10) {
            step = step.addingTimeInterval(0.25)
            firedHere += Self.fired(replica.fireDue(at: step)).map(\.date)
        }
        #expect(firedHere == (1...5).map { WireTime.seconds(Self.start.addingTimeInterval(Double($0) * 90.5)) })
        // Up again: once the floor moved past an occurrence, the next one is later than now.
        let now = Self.start.addingTimeInterval(6 * 90.5 + 0.2)
        _ = replica.linkChanged(at: now)
        #expect((replica.nextLocalFireDate() ?? .distantPast) > now)
    }

    @Test("a one-minute trigger across a ten-minute outage: each occurrence fires here once, alerts, and is replaced by the phone's after the reconnect")
    func tenMinuteOutage() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 60, from: Self.start))
        let phoneFireDates = (1...10).map { WireTime.seconds(Self.start) + Int64($0) * 60 }
        // The link drops just after the request was scheduled; the wearable's clock moves on in
        // steps of 20 s, as its firing loop would wake.
        _ = replica.linkChanged(at: Self.start.addingTimeInterval(1))
        var firedHere: [(date: Int64, alerted: Bool)] = []
        var step = Self.start
        while step < Self.start.addingTimeInterval(10 * 60 + 30) {
            step = step.addingTimeInterval(20)
            let effects = replica.fireDue(at: step)
            firedHere += Self.fired(effects)
            #expect(Self.alerts(effects).allSatisfy { $0 })
        }
        #expect(firedHere.map(\.date) == phoneFireDates)
        #expect(firedHere.allSatisfy { $0.alerted })
        let local = WireKey.localOccurrence(scheduleKey: 7)
        #expect(replica.contents.notifications[local]?.occurrence?.fireDate == phoneFireDates.last)
        #expect(replica.contents.notifications.count == 1, "a repeating request's occurrences replace each other")

        // The reconnect: the link is up; the phone's log brings its own ten occurrences, updates
        // in place of its notification 40, as catch-up.
        _ = replica.linkChanged(at: step)
        var alertsAfter: [Bool] = []
        for (index, date) in phoneFireDates.enumerated() {
            let effects = replica.apply(
                Self.phoneOccurrence(key: 40, revision: UInt64(index + 1), schedule: 7, fireDate: date), catchUp: true)
            alertsAfter += Self.alerts(effects)
        }
        #expect(alertsAfter.allSatisfy { !$0 }, "nothing alerts twice")
        #expect(replica.contents.notifications[local] == nil)
        #expect(replica.contents.notifications.keys.sorted() == [40])
        #expect(replica.contents.firing.unreconciled.isEmpty)
    }

    @Test("the phone's occurrence that the wearable fired live does not alert again, even outside a catch-up")
    func firedHereDoesNotAlertAgain() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 60, from: Self.start))
        _ = replica.linkChanged(at: Self.start)
        let effects = replica.fireDue(at: Self.start.addingTimeInterval(61))
        #expect(Self.fired(effects).map(\.alerted) == [true])
        let date = WireTime.seconds(Self.start) + 60
        let phone = replica.apply(Self.phoneOccurrence(key: 40, revision: 1, schedule: 7, fireDate: date))
        #expect(Self.alerts(phone) == [false])
        #expect(phone.contains { if case .report(.alerted(let a)) = $0 { a.reason.contains("fired this occurrence") } else { false } })
        // A later occurrence the wearable did not fire (the link was up) alerts as usual.
        let next = replica.apply(Self.phoneOccurrence(key: 40, revision: 2, schedule: 7, fireDate: date + 60))
        #expect(Self.alerts(next) == [true], "a new occurrence is a new delivery, not an update in place")
    }

    @Test("nothing fires at or before the floor: occurrences while the link was up are the phone's")
    func floorHolds() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 60, from: Self.start))
        // The link was up for five minutes and went down then.
        _ = replica.linkChanged(at: Self.start.addingTimeInterval(300))
        let effects = replica.fireDue(at: Self.start.addingTimeInterval(330))
        #expect(Self.fired(effects).isEmpty)
        #expect(replica.nextLocalFireDate() == Self.start.addingTimeInterval(360))
    }

    @Test("a clock stepped back fires nothing twice; one stepped forward records every occurrence passed and alerts once")
    func clockSteps() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 60, from: Self.start))
        _ = replica.linkChanged(at: Self.start)
        #expect(Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(125))).count == 2)
        // NTP steps the clock back by 90 s: the occurrences at 60 and 120 are not fired again.
        #expect(Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(35))).isEmpty)
        #expect(Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(125))).isEmpty)
        // And forward by five minutes: five occurrences recorded, the latest shown and alerted.
        let jump = replica.fireDue(at: Self.start.addingTimeInterval(125 + 300))
        let fired = Self.fired(jump)
        #expect(fired.map(\.date) == (3...7).map { WireTime.seconds(Self.start) + Int64($0) * 60 })
        #expect(fired.map(\.alerted) == [false, false, false, false, true])
        #expect(Self.alerts(jump) == [true])
    }

    @Test("a clock stepped a year ahead records a week of occurrences, not a year's")
    func aYearAheadRecordsAWeek() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 60, from: Self.start))
        _ = replica.linkChanged(at: Self.start)
        let yearLater = Self.start.addingTimeInterval(365 * 86_400)
        var fired: [(date: Int64, alerted: Bool)] = []
        // The agent fires what is due again and again until nothing is.
        while true {
            let step = Self.fired(replica.fireDue(at: yearLater))
            guard !step.isEmpty else { break }
            fired += step
        }
        #expect(fired.count == 7 * 1440, "a week of minutes, where a year's would be 525,600")
        #expect(fired.first?.date == WireTime.seconds(yearLater) - 7 * 86_400 + 60)
        #expect(fired.last?.date == WireTime.seconds(yearLater))
    }

    @Test("after a clock that was a year ahead is put right, occurrences fire here again when due")
    func aBogusFutureIsForgotten() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 60, from: Self.start))
        _ = replica.linkChanged(at: Self.start)
        // A bad clock reads a year ahead while apart, then NTP puts it right.
        while !Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(365 * 86_400))).isEmpty {}
        #expect(Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(125))).isEmpty)
        let next = Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(185)))
        #expect(next.map(\.date) == [WireTime.seconds(Self.start) + 180])
        // A step back within a day is NTP's ordinary correction: nothing fires twice.
        #expect(Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(150))).isEmpty)
        #expect(Self.fired(replica.fireDue(at: Self.start.addingTimeInterval(185))).isEmpty)
    }

    @Test("a calendar trigger across the DST changes fires here exactly when the phone's schedule does")
    func daylightSaving() throws {
        var change = Relay_V1_Change()
        change.scheduleUpsert.key = 9
        change.scheduleUpsert.revision = 1
        change.scheduleUpsert.content.title = "Pills"
        change.scheduleUpsert.trigger.repeats = true
        change.scheduleUpsert.trigger.calendar.hour = 2
        change.scheduleUpsert.trigger.calendar.minute = 30
        change.scheduleUpsert.timeZone = "Europe/Berlin"
        for (scheduled, until) in [
            ("2026-03-27T12:00:00Z", "2026-03-31T12:00:00Z"),  // 02:30 does not exist on 29 March
            ("2026-10-23T12:00:00Z", "2026-10-27T12:00:00Z"),  // 02:30 comes twice on 25 October
        ] {
            let from = try Date(scheduled, strategy: .iso8601)
            let to = try Date(until, strategy: .iso8601)
            change.scheduleUpsert.scheduledAt = WireTime.seconds(from)
            var replica = Replica()
            _ = replica.apply(change)
            _ = replica.linkChanged(at: from)
            var firedHere: [Int64] = []
            var step = from
            while step < to {
                step = step.addingTimeInterval(600)
                firedHere += Self.fired(replica.fireDue(at: step)).map(\.date)
            }
            let phone = try TriggerSchedule(
                trigger: NotificationTrigger(change.scheduleUpsert.trigger), scheduledAt: from,
                timeZone: #require(TimeZone(identifier: "Europe/Berlin")))
            let expected = phone.fireDates(after: from, limit: 20).filter { $0 <= to }.map(WireTime.seconds)
            #expect(firedHere == expected, "fired while apart from \(scheduled)")
            #expect(Set(firedHere).count == firedHere.count, "no occurrence twice")
            #expect(firedHere.count == 4)
        }
    }

    @Test("the phone withdraws the wearable's copy of an occurrence of a request the app removed meanwhile")
    func withdrawal() {
        var replica = Replica()
        _ = replica.apply(Self.repeating(7, every: 60, from: Self.start))
        _ = replica.linkChanged(at: Self.start)
        _ = replica.fireDue(at: Self.start.addingTimeInterval(60))
        var withdraw = Relay_V1_Change()
        withdraw.remove.key = WireKey.localOccurrence(scheduleKey: 7)
        withdraw.remove.revision = 1
        let effects = replica.apply(withdraw)
        #expect(effects.contains(.removed(key: WireKey.localOccurrence(scheduleKey: 7), revision: 0)))
        #expect(replica.contents.notifications.isEmpty)
        #expect(replica.unreconciledRequests == 0)
    }

    @Test("an occurrence fired here follows the phone's filter rule for its request: silent, or alerting through do not disturb")
    func firedHereFollowsTheFilterRule() {
        func firing(silentRule: String = "", alwaysAlertRule: String = "", doNotDisturb: Bool = false) -> (alerted: [Bool], reason: String) {
            var replica = Replica()
            var change = Self.repeating(7, every: 60, from: Self.start)
            change.scheduleUpsert.silentRule = silentRule
            change.scheduleUpsert.alwaysAlertRule = alwaysAlertRule
            _ = replica.apply(change)
            _ = replica.linkChanged(at: Self.start.addingTimeInterval(1))
            let policy = AlertPolicy(doNotDisturb: doNotDisturb ? DoNotDisturb(source: .manual) : nil, minimumGap: 0)
            let effects = replica.fireDue(context: AlertContext(policy: policy, now: Self.start.addingTimeInterval(61)))
            let reason = effects.compactMap { if case .decided(_, _, _, _, let reason, _) = $0 { reason } else { nil } }.first ?? ""
            return (Self.fired(effects).map(\.alerted), reason)
        }
        #expect(firing().alerted == [true])
        let silent = firing(silentRule: "quiet-coach")
        #expect(silent.alerted == [false])
        #expect(silent.reason.contains("\"quiet-coach\""), "\(silent.reason)")
        #expect(firing(doNotDisturb: true).alerted == [false])
        let loud = firing(alwaysAlertRule: "loud-coach", doNotDisturb: true)
        #expect(loud.alerted == [true], "\(loud.reason)")
        #expect(loud.reason.contains("\"loud-coach\""), "\(loud.reason)")
    }
}
