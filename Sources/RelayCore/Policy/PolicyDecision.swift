public import Foundation

/// What happens to one notification on arrival, and why (Docs/POLICY.md).
public struct PolicyDecision: Sendable, Hashable, CustomStringConvertible {
    /// The four outcomes, from least to most intrusive.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Not shown at all (only a filter rule drops).
        case drop
        /// Kept in the list without a vibration or a lit screen.
        case silent
        /// Vibrates with its level's pattern and shows the short look.
        case alert
        /// Alerts although do not disturb, a mute or the gap between alerts would have kept it
        /// silent: critical notifications, time-sensitive ones through do not disturb.
        case breakThrough = "break-through"

        /// Whether the wearable vibrates and lights up.
        public var alerts: Bool { self == .alert || self == .breakThrough }
    }

    /// Why: each outcome has its reasons, and every decision names one.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A filter rule said what to do.
        case rule(MatchedRule)
        /// A passive notification never alerts.
        case passive
        /// A critical notification always alerts.
        case critical
        /// The app or the thread is muted.
        case muted(Mute)
        /// Do not disturb is on.
        case doNotDisturb(DoNotDisturb)
        /// A time-sensitive notification breaks through do not disturb.
        case timeSensitiveThrough(DoNotDisturb)
        /// The last alert of the same thread was too recent: part of a burst.
        case burst(secondsSinceLast: TimeInterval, window: TimeInterval)
        /// The last alert was too recent.
        case tooSoon(secondsSinceLast: TimeInterval, minimumGap: TimeInterval)
        /// Nothing holds it back.
        case nothingHoldsItBack

        public var description: String {
            switch self {
            case .rule(let rule): "filter rule \"\(rule.name)\": \(rule.action.rawValue)"
            case .passive: "passive: never alerts"
            case .critical: "critical: always alerts"
            case .muted(let mute): "\(mute)"
            case .doNotDisturb(let dnd): "\(dnd)"
            case .timeSensitiveThrough(let dnd): "time-sensitive: breaks through \(dnd)"
            case .burst(let since, let window):
                "part of a burst: its thread alerted \(Self.seconds(since)) s ago; one alert per thread in \(Self.seconds(window)) s"
            case .tooSoon(let since, let gap):
                "another alert \(Self.seconds(since)) s ago; at least \(Self.seconds(gap)) s between vibrations"
            case .nothingHoldsItBack: "nothing holds it back"
            }
        }

        static func seconds(_ interval: TimeInterval) -> String {
            interval.rounded() == interval ? String(Int(interval)) : String(format: "%.1f", interval)
        }
    }

    /// What happens.
    public var outcome: Outcome
    /// Why.
    public var reason: Reason

    /// A decision.
    public init(_ outcome: Outcome, _ reason: Reason) {
        self.outcome = outcome
        self.reason = reason
    }

    /// `silent (muted app "Mail" until …)`.
    public var description: String { "\(outcome.rawValue) (\(reason))" }
}

/// What a filter rule does to the notifications it matches.
public enum FilterAction: String, Sendable, Hashable, CaseIterable {
    /// Not shown at all.
    case drop
    /// Shown in the list without alerting.
    case silent
    /// Alerts even through do not disturb, a mute or the gap, as a critical one would.
    case alwaysAlert = "always-alert"
}

/// A filter rule that matched a notification: its name and what it does.
public struct MatchedRule: Sendable, Hashable {
    /// The rule's name, as the rule file gives it.
    public var name: String
    /// What it does.
    public var action: FilterAction

    /// A matched rule.
    public init(name: String, action: FilterAction) {
        self.name = name
        self.action = action
    }
}
