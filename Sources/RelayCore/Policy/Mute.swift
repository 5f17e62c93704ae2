public import Foundation

/// An app or a thread the user silenced, for a while or for good: its notifications arrive
/// silently and stay in the list.
public struct Mute: Sendable, Hashable, CustomStringConvertible {
    /// What is muted.
    public enum Scope: Sendable, Hashable {
        /// Every notification of an app (by its name).
        case app(String)
        /// One thread of an app.
        case thread(app: String, thread: String)
    }

    /// What is muted.
    public var scope: Scope
    /// When the mute ends; `nil`: never (until removed).
    public var until: Date?

    /// A mute of `scope` until `until` (`nil`: always).
    public init(_ scope: Scope, until: Date? = nil) {
        self.scope = scope
        self.until = until
    }

    /// Whether it has not ended by `now`.
    public func isInForce(at now: Date) -> Bool { until.map { now < $0 } ?? true }

    /// Whether it silences a notification of `app` in `thread` at `now`.
    public func silences(app: String, thread: String, at now: Date) -> Bool {
        guard isInForce(at: now) else { return false }
        switch scope {
        case .app(let muted): return muted == app
        case .thread(let mutedApp, let mutedThread): return mutedApp == app && mutedThread == thread && !thread.isEmpty
        }
    }

    /// `muted app "Mail" until …`, `muted thread "team" of "Chat"`.
    public var description: String {
        let what =
            switch scope {
            case .app(let app): "muted app \"\(app)\""
            case .thread(let app, let thread): "muted thread \"\(thread)\" of \"\(app)\""
            }
        return what + (until.map { " until \($0.formatted(.iso8601))" } ?? "")
    }
}

/// How long a mute chosen on the wrist or with `relayctl mutes add` lasts.
public enum MuteDuration: Sendable, Hashable, CaseIterable {
    /// An hour from now.
    case hour
    /// Until the next midnight, in the device's time zone.
    case today
    /// Until removed.
    case always

    /// "1 hour", "Today", "Always": the wrist's menu.
    public var title: String {
        switch self {
        case .hour: "1 hour"
        case .today: "Today"
        case .always: "Always"
        }
    }

    /// When a mute chosen at `now` ends (`nil`: never), midnight taken in `timeZone`.
    public func until(from now: Date, in timeZone: TimeZone) -> Date? {
        switch self {
        case .hour: return now.addingTimeInterval(3600)
        case .always: return nil
        case .today:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            // A calendar that finds no midnight (none should fail) still ends it within a day.
            return calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime)
                ?? now.addingTimeInterval(86_400)
        }
    }
}

extension Mute {
    /// The furthest a mute's (or a do not disturb's) end may be: further than that is "always", said so.
    public static let longest: TimeInterval = 366 * 86_400

    /// Why a mute ending at `until` cannot be set at `now`, in words that say what to do; `nil`
    /// when it can. The time is compared in the phone's time, which the wearable's clock follows.
    public static func problem(until: Date?, at now: Date) -> String? {
        endProblem("the mute", until: until, at: now, instead: "mute it always instead (relayctl mutes add APP --always)")
    }

    /// Why something (`what`) ending at `until` cannot be set at `now`: an end already past, or
    /// more than a year away (then `instead` says what to do); `nil` when it can.
    public static func endProblem(_ what: String, until: Date?, at now: Date, instead: String) -> String? {
        guard let until else { return nil }
        // Only a time within a year of now is formatted: a calendar is not asked about year 10^300.
        if until <= now { return "\(what) would end before now; give a time to come" }
        if until.timeIntervalSince(now) > longest { return "\(what) would end more than a year away; \(instead)" }
        return nil
    }
}
