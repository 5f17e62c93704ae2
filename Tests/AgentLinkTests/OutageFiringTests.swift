import Foundation
import PhoneAgent
import RelayCore
import RelayStore
import RelayTestSupport
import RelayWire
import Testing
import WearableAgent
import WearableUI

/// Both links in one process, the link simulator's outage between them and the wearable's clock
/// moved by the test (Docs/PHONE.md, "Out of range").
@Suite("Firing the phone's schedule while apart")
struct OutageFiringTests {
    static let start = Date(timeIntervalSince1970: 1_900_000_020)

    static func alertingTitles(_ events: [UIEvent]) -> [String] {
        events.compactMap { if case .upsert(let notification, true) = $0 { notification.content.title } else { nil } }
    }

    /// Starts and pairs both links of `harness` (the wearable's clock at `start`), with Mail's
    /// "stretch" request firing every minute from then, held by the wearable.
    static func setUpStretch(_ harness: AgentLinkHarness) async throws {
        let connected = try await harness.startPaired()
        #expect(connected)
        try harness.owner.schedule(
            ScheduleItem(
                appName: "Mail", identifier: "stretch", content: NotificationContent(title: "Stretch"), category: nil,
                trigger: .timeInterval(seconds: 60, repeats: true), scheduledAt: Self.start, timeZone: "UTC"))
        // The log is ordered: once a notification posted after it is shown, the schedule is there.
        try harness.owner.post(1, title: "Barrier")
        #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "Barrier" } else { false } } })
        #expect(harness.wearable.scheduleCount == 1)
    }

    @Test("a one-minute trigger across a ten-minute outage: every occurrence once in the two records, each alerted on the wrist while apart, none again after")
    func tenMinuteOutage() async throws {
        let clock = ManualClock(Self.start)
        try await AgentLinkHarness.with(clock: clock) { harness in
            try await Self.setUpStretch(harness)

            // Out of range: ten minutes pass. The phone fires each occurrence itself (into its log,
            // which waits); the wearable fires its copy by its own clock.
            #expect(await harness.goOutOfRange())
            let fireDates = (1...10).map { Self.start.addingTimeInterval(60 * Double($0)) }
            for (index, date) in fireDates.enumerated() {
                try harness.owner.fire(100, identifier: "stretch", title: "Stretch", fireDate: date, first: index == 0)
                clock.set(date.addingTimeInterval(1))
                #expect(await harness.screen.wait { Self.alertingTitles($0).filter { $0 == "Stretch" }.count == index + 1 })
            }
            #expect(harness.wearable.offlineOccurrences == 10)
            let alertsApart = Self.alertingTitles(harness.screen.elements).count

            // Back in range: the phone's ten occurrences replace the wearable's copy, without alerting.
            let shownBefore = harness.screen.elements.count
            harness.outage.end()
            #expect(await harness.screen.wait { PairAndMirrorTests.linkStates(Array($0.dropFirst(shownBefore))).last == .connected })
            try harness.owner.post(2, title: "Barrier 2")
            #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "Barrier 2" } else { false } } })
            let after = Array(harness.screen.elements.dropFirst(shownBefore))
            #expect(Self.alertingTitles(after).filter { $0 == "Stretch" }.isEmpty, "no occurrence alerts twice")
            #expect(Self.alertingTitles(harness.screen.elements).count == alertsApart + 1, "only Barrier 2 alerted since")
            #expect(harness.wearable.offlineOccurrences == 0)

            // The records: each occurrence once on each device, by identity, and the same ones.
            let wearable = try harness.wearable.occurrences()
            let seconds = fireDates.map(WireTime.seconds)
            #expect(wearable.map(\.fireDate) == seconds)
            #expect(wearable.allSatisfy { $0.onWearable && $0.alertedOnWearable && $0.reconciled })
            let phone = try await waitForPhoneRecord(harness, count: 10)
            #expect(phone.map(\.fireDate) == seconds)
            #expect(phone.allSatisfy { $0.onPhone && $0.onWearable && $0.schedule == "Mail\u{1F}stretch" })
        }
    }

    @Test("while connected, an occurrence falling due moves the stored floor past it, so a wearable restarted before the link drops leaves it to the phone")
    func floorFollowsTheScheduleWhileConnected() async throws {
        let clock = ManualClock(Self.start)
        try await AgentLinkHarness.with(clock: clock) { harness in
            try await Self.setUpStretch(harness)

            let stored = try RelayDatabase(path: harness.folder + "/wearable/wearable.sqlite", migrations: WearableSchema.migrations)
            func floor() -> Int64 { (try? stored.read(ReplicaPersistence.load).firing.floor) ?? 0 }
            let connectedFloor = floor()
            let due = Self.start.addingTimeInterval(3 * 60 + 1)
            clock.set(due)
            #expect(await waitFor { floor() == WireTime.seconds(due) }, "floor \(floor()), stored when the link came up: \(connectedFloor)")
            #expect(harness.wearable.offlineOccurrences == 0, "connected, the wearable fired nothing itself")
        }
    }

    @Test("a daily 02:30 trigger in Berlin across the spring-forward night, during an outage: fired on the wrist when the phone's schedule says, once")
    func daylightSavingDuringAnOutage() async throws {
        let scheduledAt = try Date("2026-03-27T12:00:00Z", strategy: .iso8601)
        let clock = ManualClock(scheduledAt)
        try await AgentLinkHarness.with(clock: clock) { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            let trigger = NotificationTrigger.calendar(CalendarComponents(hour: 2, minute: 30), repeats: true)
            try harness.owner.schedule(
                ScheduleItem(
                    appName: "Mail", identifier: "pills", content: NotificationContent(title: "Pills"), category: nil,
                    trigger: trigger, scheduledAt: scheduledAt, timeZone: "Europe/Berlin"))
            try harness.owner.post(1, title: "Barrier")
            #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "Barrier" } else { false } } })

            #expect(await harness.goOutOfRange())
            // Three nights pass on the wearable's clock, in ten-minute steps (the 29th has no 02:30).
            let phone = try TriggerSchedule(
                trigger: trigger, scheduledAt: scheduledAt, timeZone: #require(TimeZone(identifier: "Europe/Berlin")))
            let end = scheduledAt.addingTimeInterval(3 * 86_400)
            let expected = phone.fireDates(after: scheduledAt, limit: 10).filter { $0 <= end }
            var step = scheduledAt
            while step < end {
                step = step.addingTimeInterval(600)
                let due = expected.filter { $0 <= step }.count
                clock.set(step)
                #expect(await harness.screen.wait { Self.alertingTitles($0).filter { $0 == "Pills" }.count == due })
            }
            let fired = try harness.wearable.occurrences().map(\.fireDate)
            #expect(fired == expected.map(WireTime.seconds))
            #expect(expected.count == 3)
            #expect(Set(fired).count == fired.count)
        }
    }

    /// The phone records the wearable's reports as they arrive after the reconnect.
    private func waitForPhoneRecord(_ harness: AgentLinkHarness, count: Int) async throws -> [OccurrenceTable.Row] {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let rows = try harness.coordinator.occurrences()
            if rows.filter(\.onWearable).count >= count { return rows }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try harness.coordinator.occurrences()
    }
}
