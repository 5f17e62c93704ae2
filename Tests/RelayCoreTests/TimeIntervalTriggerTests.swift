import Foundation
import RelayCore
import Testing

@Suite struct TimeIntervalTriggerTests {
    @Test func oneShotFiresOnceAfterItsInterval() throws {
        let scheduled = try instant("2027-01-10T12:00:00Z")
        let schedule = try TriggerSchedule(
            trigger: .timeInterval(seconds: 90, repeats: false), scheduledAt: scheduled, timeZone: .gmt)
        #expect(iso(schedule.nextFireDate(after: scheduled)) == "2027-01-10T12:01:30Z")
        #expect(schedule.nextFireDate(after: try instant("2027-01-10T12:01:30Z")) == nil)
        #expect(schedule.fireDates(after: scheduled, limit: 5).count == 1)
    }

    @Test func repeatingProducesEveryMultipleOfTheInterval() throws {
        let scheduled = try instant("2027-01-10T12:00:00Z")
        let schedule = try TriggerSchedule(
            trigger: .timeInterval(seconds: 3600, repeats: true), scheduledAt: scheduled, timeZone: .gmt)
        let dates = schedule.fireDates(after: scheduled, limit: 4).map { iso($0) }
        #expect(dates == ["2027-01-10T13:00:00Z", "2027-01-10T14:00:00Z", "2027-01-10T15:00:00Z", "2027-01-10T16:00:00Z"])
        // Asking from the middle of a period, or from a fire date itself, gives the next one.
        #expect(iso(schedule.nextFireDate(after: try instant("2027-01-10T15:59:59Z"))) == "2027-01-10T16:00:00Z")
        #expect(iso(schedule.nextFireDate(after: try instant("2027-01-10T16:00:00Z"))) == "2027-01-10T17:00:00Z")
        // Before the schedule began, the first fire date is next.
        #expect(iso(schedule.nextFireDate(after: try instant("2027-01-01T00:00:00Z"))) == "2027-01-10T13:00:00Z")
    }

    @Test func repeatingUnderAMinuteIsRejected() throws {
        #expect(throws: ScheduleError.self) {
            try TriggerSchedule(trigger: .timeInterval(seconds: 59, repeats: true), scheduledAt: .now, timeZone: .gmt)
        }
        // A one-shot may be short.
        _ = try TriggerSchedule(trigger: .timeInterval(seconds: 5, repeats: false), scheduledAt: .now, timeZone: .gmt)
    }

    @Test func pushAndLocationHaveNoSchedule() {
        #expect(throws: ScheduleError.notTimeBased) {
            try TriggerSchedule(trigger: .push, scheduledAt: .now, timeZone: .gmt)
        }
        let region = LocationRegion(identifier: "home", latitude: 52.5, longitude: 13.4, radius: 100)
        #expect(throws: ScheduleError.locationUnavailable) {
            try TriggerSchedule(trigger: .location(region, repeats: false), scheduledAt: .now, timeZone: .gmt)
        }
        #expect(ScheduleError.locationUnavailable.description.contains("use a timeInterval or calendar trigger"))
    }
}
