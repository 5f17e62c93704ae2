import Foundation
import RelayCLI
import RelayControl
import RelayCore

/// `relayctl filter list|reload|test` (Docs/POLICY.md, "Filter rules"), and `relayctl why` and
/// `history` with `--phone`: the phone's decisions and the wearable's reports of its own.
extension PhoneControl {
    func why(_ id: UInt32) -> ControlResponse {
        do {
            var decisions = try mirror.decisions(about: id)
            guard !decisions.isEmpty else {
                return .failure("the phone has decided nothing about notification \(id) in the last week: relayctl delivered lists the ids")
            }
            // Ids come back (a monitored server's start again from 1 when it restarts): while one is
            // delivered, what was decided before it arrived was about another notification.
            var values: [String: ControlValue] = [:]
            if let delivered = server.coordinator.deliveredDate(of: id) {
                let since = Int64(delivered.timeIntervalSince1970.rounded(.down))
                let current = decisions.filter { $0.at >= since }
                if current.isEmpty {
                    return .failure(
                        "the phone has decided nothing about notification \(id) since it arrived; the \(decisions.count) decision(s) under this id "
                            + "are about an earlier notification with it (relayctl history --phone lists them)")
                }
                if current.count < decisions.count {
                    values["earlier"] = .int(decisions.count - current.count)
                    decisions = current
                }
            }
            values["decisions"] = .list(decisions.map(\.controlValue))
            return .success(values)
        } catch {
            return .failure("could not read the decision history: \(error)")
        }
    }

    func history(app: String?) -> ControlResponse {
        do {
            return .success(["decisions": .list(try mirror.recentDecisions(app: app).map(\.controlValue))])
        } catch {
            return .failure("could not read the decision history: \(error)")
        }
    }

    func filter(_ request: FilterRequest) -> ControlResponse {
        switch request {
        case .list:
            return .success(filterRules.values)
        case .reload:
            if let problem = filterRules.reload() {
                return .failure("the filter rules were refused; the rules in force stay:\n\(problem)")
            }
            return .success(filterRules.values)
        case .test(let probe):
            return test(probe)
        }
    }

    /// What the phone would decide for `probe` now — its filter rules, do not disturb and
    /// mutes —, without posting anything. The wearable then keeps its quiet hours and gap.
    private func test(_ probe: NotificationProbe) -> ControlResponse {
        guard let level = InterruptionLevel(rawValue: probe.level) else {
            return .failure("\"\(probe.level)\" is no interruption level; give passive, active, time-sensitive or critical")
        }
        var content = NotificationContent(title: probe.title, body: probe.body, threadIdentifier: probe.thread, interruptionLevel: level)
        if !probe.category.isEmpty { content.userInfo[NotificationContent.freedesktopCategoryKey] = .string(probe.category) }
        let rule = filterRules.current().match(app: probe.app, content: content)
        // A thread is muted by the key the wearable knows it by; one never mirrored has none.
        let thread = probe.thread.isEmpty ? "" : mirror.threadKey(app: probe.app, thread: probe.thread).map(String.init) ?? ""
        let decision = doNotDisturb.policy().decide(
            AlertPolicy.Subject(level: level, app: probe.app, thread: thread, rule: rule), lastAlert: nil, at: Date())
        let phone: String =
            switch decision.outcome {
            case .drop: "not mirrored"
            case .silent: "mirrored without an alert"
            case .alert, .breakThrough: "mirrored; it may alert while the phone is locked"
            }
        return .success([
            "outcome": .string(decision.outcome.rawValue),
            "reason": .string(decision.reason.description),
            "rule": .string(rule?.name ?? ""),
            "phone": .string(phone),
        ])
    }
}
