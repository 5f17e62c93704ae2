import Foundation
import RelayCore
import Testing

/// Every row of Docs/POLICY.md's table, in its order: the notification, what is on, and the
/// decision with its reason.
@Suite struct AlertPolicyTests {
    /// Thursday 2026-11-26 23:30 in Berlin, the moment most rows are decided at.
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let thursdayNight = Date(timeIntervalSince1970: 1_795_732_200)
    static let weeknights = QuietHours(start: 22 * 60, end: 7 * 60, weekdays: [2, 3, 4, 5, 6], timeZone: zone)

    struct Row: Sendable, CustomTestStringConvertible {
        var row: Int
        var subject: AlertPolicy.Subject
        var policy = AlertPolicy()
        var lastAlert: TimeInterval? = nil
        var lastThreadAlert: TimeInterval? = nil
        var at: Date = AlertPolicyTests.thursdayNight
        var outcome: PolicyDecision.Outcome
        var reason: String
        var testDescription: String { "row \(row): \(outcome.rawValue)" }
    }

    static func mail(_ level: InterruptionLevel = .active, thread: String = "") -> AlertPolicy.Subject {
        AlertPolicy.Subject(level: level, app: "Mail", thread: thread)
    }

    static let manual = DoNotDisturb(source: .manual)
    static let hour: TimeInterval = 3600

    static let rows: [Row] = [
        Row(row: 1, subject: .init(level: .critical, app: "Spam", rule: MatchedRule(name: "spam", action: .drop)), outcome: .drop, reason: "filter rule \"spam\": drop"),
        Row(row: 2, subject: .init(level: .active, app: "Shop", rule: MatchedRule(name: "offers", action: .silent)), outcome: .silent, reason: "filter rule \"offers\": silent"),
        Row(row: 3, subject: .init(level: .active, app: "Door", rule: MatchedRule(name: "door", action: .alwaysAlert)),
            policy: AlertPolicy(doNotDisturb: manual), lastAlert: 1, outcome: .breakThrough, reason: "filter rule \"door\": always-alert"),
        Row(row: 4, subject: mail(.passive), outcome: .silent, reason: "passive: never alerts"),
        Row(row: 5, subject: mail(.critical), policy: AlertPolicy(doNotDisturb: manual, mutes: [Mute(.app("Mail"))]), lastAlert: 1,
            outcome: .breakThrough, reason: "critical: always alerts"),
        Row(row: 6, subject: mail(), policy: AlertPolicy(mutes: [Mute(.app("Mail"), until: thursdayNight + hour)]),
            outcome: .silent, reason: "muted app \"Mail\" until 2026-11-26T23:30:00Z"),
        Row(row: 7, subject: mail(.timeSensitive), policy: AlertPolicy(mutes: [Mute(.app("Mail"))]), outcome: .silent, reason: "muted app \"Mail\""),
        Row(row: 8, subject: mail(thread: "family"), policy: AlertPolicy(mutes: [Mute(.thread(app: "Mail", thread: "team"))]),
            outcome: .alert, reason: "nothing holds it back"),
        Row(row: 9, subject: mail(thread: "team"), policy: AlertPolicy(mutes: [Mute(.thread(app: "Mail", thread: "team"))]),
            outcome: .silent, reason: "muted thread \"team\" of \"Mail\""),
        Row(row: 10, subject: mail(), policy: AlertPolicy(mutes: [Mute(.app("Mail"), until: thursdayNight - 1)]), outcome: .alert, reason: "nothing holds it back"),
        Row(row: 11, subject: mail(), policy: AlertPolicy(doNotDisturb: manual), outcome: .silent, reason: "do not disturb (turned on by hand)"),
        Row(row: 12, subject: mail(.timeSensitive), policy: AlertPolicy(doNotDisturb: DoNotDisturb(source: .inhibitor(application: "Presenter"))),
            outcome: .breakThrough, reason: "time-sensitive: breaks through do not disturb (inhibited by Presenter)"),
        Row(row: 13, subject: mail(), policy: AlertPolicy(doNotDisturb: DoNotDisturb(source: .manual, until: thursdayNight)), outcome: .alert, reason: "nothing holds it back"),
        Row(row: 14, subject: mail(), policy: AlertPolicy(quietHours: weeknights), outcome: .silent,
            reason: "do not disturb (quiet hours) until 2026-11-27T06:00:00Z"),
        Row(row: 15, subject: mail(), policy: AlertPolicy(quietHours: weeknights), at: thursdayNight + 7.5 * hour, outcome: .alert, reason: "nothing holds it back"),
        // Friday 22:00 starts a period that runs into Saturday, a day not listed.
        Row(row: 16, subject: mail(), policy: AlertPolicy(quietHours: weeknights), at: thursdayNight + 25.5 * hour, outcome: .silent,
            reason: "do not disturb (quiet hours) until 2026-11-28T06:00:00Z"),
        Row(row: 17, subject: mail(), policy: AlertPolicy(quietHours: weeknights), at: thursdayNight + 47.5 * hour, outcome: .alert, reason: "nothing holds it back"),
        Row(row: 18, subject: mail(), lastAlert: 1, outcome: .silent, reason: "another alert 1 s ago; at least 3 s between vibrations"),
        Row(row: 19, subject: mail(.timeSensitive), lastAlert: 2.5, outcome: .silent, reason: "another alert 2.5 s ago; at least 3 s between vibrations"),
        Row(row: 20, subject: mail(), lastAlert: 3, outcome: .alert, reason: "nothing holds it back"),
        Row(row: 21, subject: mail(), lastAlert: -60, outcome: .alert, reason: "nothing holds it back"),
        Row(row: 22, subject: mail(), outcome: .alert, reason: "nothing holds it back"),
        Row(row: 23, subject: mail(thread: "team"), lastAlert: 10, lastThreadAlert: 10, outcome: .silent,
            reason: "part of a burst: its thread alerted 10 s ago; one alert per thread in 30 s"),
        Row(row: 24, subject: mail(thread: "team"), lastAlert: 30, lastThreadAlert: 30, outcome: .alert, reason: "nothing holds it back"),
        Row(row: 25, subject: mail(.critical, thread: "team"), lastAlert: 1, lastThreadAlert: 1, outcome: .breakThrough, reason: "critical: always alerts"),
    ]

    @Test(arguments: rows)
    func theTable(_ row: Row) {
        let decision = row.policy.decide(
            row.subject, lastAlert: row.lastAlert.map { row.at - $0 }, lastThreadAlert: row.lastThreadAlert.map { row.at - $0 }, at: row.at)
        #expect(decision.outcome == row.outcome)
        #expect(decision.reason.description == row.reason)
    }

    /// The table in Docs/POLICY.md has these rows, numbered alike.
    @Test func theDocumentHasEveryRow() throws {
        let document = try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/RelayCoreTests/AlertPolicyTests.swift", with: "Docs/POLICY.md"), encoding: .utf8)
        for row in Self.rows {
            let line = document.split(separator: "\n").first { $0.hasPrefix("| \(row.row) |") }
            #expect(line?.contains("| \(row.outcome.rawValue) |") == true, "row \(row.row) of Docs/POLICY.md says \(String(describing: line))")
            #expect(line?.contains("| \(row.reason) |") == true, "row \(row.row)'s reason in Docs/POLICY.md")
        }
    }

    @Test func quietHoursWithinOneDayAndAllDay() {
        let lunch = QuietHours(start: 12 * 60, end: 13 * 60, timeZone: Self.zone)
        #expect(!lunch.contains(Self.thursdayNight))
        #expect(lunch.contains(Self.thursdayNight + 12.5 * Self.hour))  // Friday 12:00
        let sundays = QuietHours(start: 0, end: 0, weekdays: [1], timeZone: Self.zone)
        #expect(!sundays.contains(Self.thursdayNight))
        #expect(sundays.contains(Self.thursdayNight + 72 * Self.hour))  // Sunday 23:30
        // A whole day ends at the next midnight, Monday 00:00 in Berlin.
        #expect(sundays.end(after: Self.thursdayNight + 72 * Self.hour) == Self.thursdayNight + 72.5 * Self.hour)
        // Whole weekdays in a row: Thursday's run ends when Saturday begins.
        let weekdays = QuietHours(start: 0, end: 0, weekdays: [2, 3, 4, 5, 6], timeZone: Self.zone)
        #expect(weekdays.end(after: Self.thursdayNight) == Self.thursdayNight + 24.5 * Self.hour)
    }
}
