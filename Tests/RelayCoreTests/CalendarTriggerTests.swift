import Foundation
import RelayCore
import Testing

@Suite struct CalendarTriggerTests {
    private func dates(
        _ components: CalendarComponents, repeats: Bool = true, zone identifier: String, from start: String, count: Int
    ) throws -> [String] {
        let schedule = try TriggerSchedule(
            trigger: .calendar(components, repeats: repeats), scheduledAt: try instant(start),
            timeZone: try zone(identifier))
        return schedule.fireDates(after: try instant(start), limit: count).map { iso($0) }
    }

    @Test func byHourAndMinuteEveryDay() throws {
        let fired = try dates(CalendarComponents(hour: 9, minute: 25), zone: "Europe/Berlin", from: "2027-01-10T08:30:00Z", count: 3)
        // 09:25 CET is 08:25 UTC; today's has passed.
        #expect(fired == ["2027-01-11T08:25:00Z", "2027-01-12T08:25:00Z", "2027-01-13T08:25:00Z"])
    }

    @Test func finerFieldsDefaultToTheirMinimum() throws {
        // hour alone means hh:00:00; minute alone means every hour at that minute.
        #expect(try dates(CalendarComponents(hour: 8), zone: "UTC", from: "2027-01-10T00:00:00Z", count: 1) == ["2027-01-10T08:00:00Z"])
        #expect(
            try dates(CalendarComponents(minute: 30), zone: "UTC", from: "2027-01-10T00:00:00Z", count: 3)
                == ["2027-01-10T00:30:00Z", "2027-01-10T01:30:00Z", "2027-01-10T02:30:00Z"])
        // month alone means the first of that month at midnight.
        #expect(try dates(CalendarComponents(month: 3), zone: "UTC", from: "2027-01-10T00:00:00Z", count: 2)
            == ["2027-03-01T00:00:00Z", "2028-03-01T00:00:00Z"])
    }

    @Test func byWeekday() throws {
        // Weekday 6 is Friday; 2027-01-10 is a Sunday.
        let fired = try dates(CalendarComponents(weekday: 6, hour: 16), zone: "America/New_York", from: "2027-01-10T00:00:00Z", count: 3)
        #expect(fired == ["2027-01-15T21:00:00Z", "2027-01-22T21:00:00Z", "2027-01-29T21:00:00Z"])
    }

    @Test func theThirtyFirstSkipsShortMonths() throws {
        let fired = try dates(CalendarComponents(day: 31, hour: 9), zone: "UTC", from: "2027-01-01T00:00:00Z", count: 4)
        #expect(fired == ["2027-01-31T09:00:00Z", "2027-03-31T09:00:00Z", "2027-05-31T09:00:00Z", "2027-07-31T09:00:00Z"])
    }

    @Test func leapDayFindsTheNextLeapYear() throws {
        let fired = try dates(CalendarComponents(month: 2, day: 29, hour: 12), zone: "UTC", from: "2027-01-01T00:00:00Z", count: 2)
        #expect(fired == ["2028-02-29T12:00:00Z", "2032-02-29T12:00:00Z"])
    }

    @Test func aYearInThePastNeverFires() throws {
        #expect(try dates(CalendarComponents(year: 2020, month: 1, day: 1), zone: "UTC", from: "2027-01-01T00:00:00Z", count: 1).isEmpty)
    }

    @Test func oneShotFiresAtTheFirstMatchOnly() throws {
        let fired = try dates(CalendarComponents(hour: 7), repeats: false, zone: "UTC", from: "2027-01-01T10:00:00Z", count: 3)
        #expect(fired == ["2027-01-02T07:00:00Z"])
    }

    // MARK: Daylight-saving changes (rule: Docs/MODEL.md, "Calendar triggers and DST")

    @Test(arguments: [
        // A 02:30 trigger on the spring-forward night: 02:30 does not exist, so it fires
        // as far after the jump as 02:30 is into the gap: at 03:30 local time.
        ("Europe/Berlin", "2027-03-27T12:00:00Z", ["2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z"]),
        ("America/New_York", "2027-03-13T12:00:00Z", ["2027-03-14T07:30:00Z", "2027-03-15T06:30:00Z"]),
    ])
    func springForwardGapShiftsForward(zoneIdentifier: String, start: String, expected: [String]) throws {
        let fired = try dates(CalendarComponents(hour: 2, minute: 30), zone: zoneIdentifier, from: start, count: 2)
        #expect(fired == expected)
    }

    @Test(arguments: [
        // A 01:30 trigger on the fall-back night: New York sees 01:30 twice and it fires at
        // the first (EDT) only; Berlin's 01:30 is not repeated and fires as usual.
        ("America/New_York", "2027-11-06T12:00:00Z", ["2027-11-07T05:30:00Z", "2027-11-08T06:30:00Z"]),
        ("Europe/Berlin", "2027-10-30T12:00:00Z", ["2027-10-30T23:30:00Z", "2027-11-01T00:30:00Z"]),
    ])
    func fallBackOverlapFiresOnce(zoneIdentifier: String, start: String, expected: [String]) throws {
        let fired = try dates(CalendarComponents(hour: 1, minute: 30), zone: zoneIdentifier, from: start, count: 2)
        #expect(fired == expected)
    }

    @Test func berlinTwoThirtyOnFallBackFiresAtTheFirstOccurrence() throws {
        let fired = try dates(CalendarComponents(hour: 2, minute: 30), zone: "Europe/Berlin", from: "2027-10-30T12:00:00Z", count: 2)
        #expect(fired == ["2027-10-31T00:30:00Z", "2027-11-01T01:30:00Z"])
    }

    @Test func hourlyTriggerAcrossTheGapNeverFiresTwice() throws {
        let fired = try dates(CalendarComponents(minute: 30), zone: "Europe/Berlin", from: "2027-03-27T23:00:00Z", count: 4)
        // 00:30 and 01:30 CET, then 02:30 (shifted to 03:30 CEST) and 03:30 CEST coincide.
        #expect(fired == ["2027-03-27T23:30:00Z", "2027-03-28T00:30:00Z", "2027-03-28T01:30:00Z", "2027-03-28T02:30:00Z"])
        #expect(Set(fired).count == fired.count)
    }

    @Test func aSequenceIsStrictlyIncreasingAcrossAYear() throws {
        let fired = try dates(CalendarComponents(hour: 2, minute: 30), zone: "America/New_York", from: "2027-01-01T00:00:00Z", count: 365)
        let parsed = try fired.map { try instant($0) }
        #expect(parsed.count == 365)
        #expect(zip(parsed, parsed.dropFirst()).allSatisfy { $0 < $1 })
    }
}
