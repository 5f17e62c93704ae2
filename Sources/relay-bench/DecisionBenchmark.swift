import ArgumentParser
import Foundation
import RelayCore
import RelaySystem

/// The cost of deciding one notification (Docs/POLICY.md): the phone's filter rules (patterns
/// through glibc's regexec) and the alert policy with quiet hours, mutes and a thread's burst.
struct DecisionBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decision", abstract: "Microseconds to decide one notification: filter rules, then the alert policy.")

    @Option(help: "Notifications decided per run.")
    var count = 100_000

    @Option(help: "Filter rules, each with a title pattern; none matches, so all are tried and the whole policy runs.")
    var rules = 20

    @Option(help: "Mutes in force (apps other than the one posting).")
    var mutes = 50

    func run() throws {
        let patterns = try (0..<rules).map { index in
            try POSIXRegex("(offer|sale|discount) \(index)", ignoringCase: true)
        }
        let filter = FilterRules(patterns.enumerated().map { index, pattern in
            FilterRule(name: "rule \(index)", title: { pattern.matches($0) }, action: .silent)
        })
        let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
        let policy = AlertPolicy(
            quietHours: QuietHours(start: 22 * 60, end: 7 * 60, weekdays: [2, 3, 4, 5, 6], timeZone: zone),
            mutes: (0..<mutes).map { Mute(.app("App \($0)")) })
        let content = NotificationContent(
            title: "Build 4711: deploy failed on staging", body: String(repeating: "Log line with details. ", count: 40),
            threadIdentifier: "4")
        let start = Date(timeIntervalSince1970: 1_795_690_000)
        var bursts = 0
        var runs: [Double] = []
        for _ in 0..<3 {
            let began = MonotonicClock.nanoseconds()
            for index in 0..<count {
                let now = start + Double(index)
                let rule = filter.match(app: "CI", content: content)
                let decision = policy.decide(
                    AlertPolicy.Subject(level: .active, app: "CI", thread: "4", rule: rule), lastAlert: now - 1, lastThreadAlert: now - 10,
                    at: now)
                if case .burst = decision.reason { bursts += 1 }
            }
            runs.append(Double(MonotonicClock.nanoseconds() - began) / 1000 / Double(count))
        }
        // Past every rule, mute and the quiet hours (some of the times fall in them, and then those
        // decide), to the thread's burst.
        precondition(bursts > 0, "the decisions reach the thread's burst")
        let text = runs.map { String(format: "%.2f", $0) }.joined(separator: ", ")
        print("decision: \(text) µs per notification (\(rules) rules, \(mutes) mutes, quiet hours; three runs of \(count))")
        FigureLog.record(
            "decision", "deciding one notification: \(rules) filter rules and the alert policy, µs (three runs)", text,
            target: "≤ 50", met: runs.allSatisfy { $0 <= 50 })
    }
}
