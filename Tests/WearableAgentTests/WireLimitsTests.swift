import Foundation
import Logging
import RelayCore
import RelayLinkRuntime
import RelayStore
import RelayWire
import Testing

@testable import WearableAgent

/// What the phone may send beyond protobuf's own checks: a change outside the limits is
/// refused whole and passed over, where it used to trap the wearable (and again at every start).
@Suite("Wire limits")
struct WireLimitsTests {
    static func schedule(scheduledAt: Int64) -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.scheduleUpsert.key = 7
        change.scheduleUpsert.revision = 1
        change.scheduleUpsert.appKey = 1
        change.scheduleUpsert.content.title = "Stretch"
        change.scheduleUpsert.trigger.repeats = true
        change.scheduleUpsert.trigger.calendar.hour = 8
        change.scheduleUpsert.scheduledAt = scheduledAt
        return change
    }

    @Test("each field the stores and calendars compute with is checked")
    func limits() {
        #expect(WireLimits.problem(in: ReplicaTests.upsert(1, revision: 1)) == nil)
        #expect(WireLimits.problem(in: Self.schedule(scheduledAt: 1_700_000_000)) == nil)
        #expect(WireLimits.problem(in: Self.schedule(scheduledAt: .max))?.contains("scheduled_at") == true)
        #expect(WireLimits.problem(in: Self.schedule(scheduledAt: .min))?.contains("scheduled_at") == true)
        #expect(WireLimits.problem(in: ReplicaTests.upsert(1, revision: 1 << 63))?.contains("revision") == true)
        #expect(WireLimits.problem(in: ReplicaTests.remove(5, revision: 1 << 63))?.contains("revision") == true)
        var occurrence = ReplicaTests.upsert(1, revision: 1)
        occurrence.upsert.occurrence.scheduleKey = 7
        occurrence.upsert.occurrence.fireDate = .max - 2
        #expect(WireLimits.problem(in: occurrence)?.contains("occurrence.fire_date") == true)

        var fired = Relay_V1_WearableEvent()
        fired.at = 1_700_000_000
        fired.firedLocally.scheduleKey = 7
        fired.firedLocally.fireDate = 1_700_000_060
        #expect(WireLimits.problem(in: fired) == nil)
        fired.firedLocally.fireDate = .min
        #expect(WireLimits.problem(in: fired)?.contains("fire_date") == true)
    }

    @Test("a schedule starting at no possible time is refused and passed over; the next change applies")
    func refusedAndPassedOver() async throws {
        let folder = NSTemporaryDirectory() + "relay-wire-limits-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = try WearableLink(
            directory: StateDirectory(path: folder),
            configuration: WearableLink.Configuration(deviceName: "Test", capabilities: Relay_V1_Capabilities()),
            logger: Logger(label: "test"), present: { _ in })
        try await link.apply(
            [
                InboundEntry(seq: 1, body: .change(Self.schedule(scheduledAt: .max))),
                InboundEntry(seq: 2, body: .change(ReplicaTests.upsert(1, revision: 1, title: "After"))),
            ], connection: 1)
        #expect(link.scheduleCount == 0)
        // Read outside #expect: its expansion of a call on a Mutex (not copyable) crashed under Swift 6.3.
        let shown = link.state.withLock { $0.replica.contents.notifications[1] != nil }
        #expect(shown)
        let appliedThrough = try link.database.read { db in try LinkLogTables.state(db).appliedThrough }
        #expect(appliedThrough == 2)
    }

    @Test("a date far outside the calendar does not trap the schedule's arithmetic")
    func scheduleArithmeticIsBounded() throws {
        let schedule = try TriggerSchedule(
            trigger: .calendar(CalendarComponents(hour: 8), repeats: true),
            scheduledAt: Date(timeIntervalSince1970: 1e19), timeZone: try #require(TimeZone(identifier: "America/New_York")))
        _ = schedule.nextFireDate(after: Date(timeIntervalSince1970: -1e19))
        _ = schedule.nextFireDate(after: Date(timeIntervalSince1970: 1_700_000_000))
    }
}
