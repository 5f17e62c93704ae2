import Foundation
import RelayCLI
import RelayConfig
import RelayControl
import RelayCore
import RelaySystem
import Synchronization
import UnixSignals

/// The phone's filter rules as last loaded without a mistake (Docs/POLICY.md, "Filter rules"):
/// read at start, on SIGHUP and on `relayctl filter reload`. A file with a mistake is refused
/// whole, said in the log and in `relayctl status --phone`, and the rules in force stay. Read by
/// the mirror at each change; reloaded on the control thread or a pool task.
final class FilterRuleBook: Sendable {
    private struct State {
        var rules = FilterRules()
        var definitions: [FilterRuleFile.Rule] = []
        var problem: String?
        /// The reading these come from.
        var installed = 0
    }

    /// The file's path (it may not exist: no rules).
    let path: String
    private let state = Mutex(State())
    /// The number of the last reading begun: of two readings at once (SIGHUP and relayctl), the
    /// later one's rules are the ones kept, whichever finishes first.
    private let readings = Atomic<Int>(0)
    private let log: AgentLogSink
    /// Told after each reading that installed rules (`whenReloaded`).
    private let reloaded = LockedCallback<Void>()

    /// Rules from `path`, loaded now.
    init(path: String, log: AgentLogSink) {
        self.path = path
        self.log = log
        reload()
    }

    /// The rules in force.
    func current() -> FilterRules { state.withLock { $0.rules } }

    /// Calls `handler` after each later reading that installs rules (it runs on the reader's thread).
    func whenReloaded(_ handler: @escaping @Sendable () -> Void) {
        reloaded.set { _ in handler() }
    }

    /// Reads the file again; on a mistake keeps the rules in force. Returns the problem, if any.
    @discardableResult
    func reload() -> ConfigurationError? {
        let reading = readings.add(1, ordering: .relaxed).newValue
        do {
            let file = try FilterRuleFile.load(path: path)
            let rules = FilterRules(file.rules.map(Self.rule))
            state.withLock { state in
                guard reading > state.installed else { return }
                state = State(rules: rules, definitions: file.rules, problem: nil, installed: reading)
            }
            log("relay-phone: filter rules: \(file.rules.count) from \(path)" + (file.rules.isEmpty ? " (none)" : ": " + file.rules.map(\.name).joined(separator: ", ")))
            reloaded.current?(())
            return nil
        } catch {
            let kept = state.withLock { state in
                if reading > state.installed {
                    state.problem = error.description
                    state.installed = reading
                }
                return state.definitions.count
            }
            log("relay-phone: the filter rules in \(path) were refused; the \(kept) rule(s) in force stay:\n\(error)", level: .error)
            return error
        }
    }

    /// Reloads on every signal of `hangUps` (SIGHUP, trapped by the caller before it said it
    /// was ready) until cancelled.
    func reload(on hangUps: UnixSignalsSequence) async {
        for await _ in hangUps {
            reload()
        }
    }

    /// For `relayctl status --phone` and `relayctl filter`.
    var values: [String: ControlValue] {
        state.withLock { state in
            var values: [String: ControlValue] = [
                "filterRulesFile": .string(path),
                "filterRules": .list(state.definitions.map { .string(Self.summary($0)) }),
            ]
            if let problem = state.problem { values["filterRulesProblem"] = .string(problem) }
            return values
        }
    }

    /// `offers: app Shop, title /offer|sale/ → silent`.
    private static func summary(_ rule: FilterRuleFile.Rule) -> String {
        let conditions = [
            rule.app.map { "app \($0)" }, rule.category.map { "category \($0)" }, rule.level.map { "level \($0)" },
            rule.title.map { "title /\($0.pattern)/" }, rule.body.map { "body /\($0.pattern)/" },
        ].compactMap { $0 }
        return "\(rule.name): \(conditions.joined(separator: ", ")) → \(rule.action)"
    }

    /// The policy's form of a rule from the file (which checked every name).
    private static func rule(_ rule: FilterRuleFile.Rule) -> FilterRule {
        FilterRule(
            name: rule.name, app: rule.app, category: rule.category, level: rule.level.flatMap(InterruptionLevel.init(rawValue:)),
            title: matcher(rule.title), body: matcher(rule.body), action: FilterAction(rawValue: rule.action) ?? .silent)
    }

    private static func matcher(_ pattern: POSIXRegex?) -> (@Sendable (String) -> Bool)? {
        guard let pattern else { return nil }
        return { text in pattern.matches(text) }
    }
}
