public import Foundation

/// What the user asked for that decides whether a notification alerts — do not disturb from
/// any source, quiet hours, mutes, and a gap between vibrations — as one pure function with a
/// reason for every outcome. The order, and so the whole table, is in Docs/POLICY.md:
/// a filter rule; passive; critical; a mute; do not disturb (time-sensitive breaks through);
/// a burst in one thread; the gap; otherwise an alert.
public struct AlertPolicy: Sendable, Hashable {
    /// Do not disturb turned on by a source (the manual toggle, an inhibitor, the desktop), if any.
    public var doNotDisturb: DoNotDisturb?
    /// The daily quiet hours, if any.
    public var quietHours: QuietHours?
    /// The apps and threads muted.
    public var mutes: [Mute]
    /// The least time between two vibrations; a notification sooner than that after the last
    /// alert arrives silently. PebbleOS keeps 3 s.
    public var minimumGap: TimeInterval

    /// The least time between two alerts of one thread: a burst of messages in a conversation
    /// buzzes once, the rest arrive silently and the short look counts them ("and 3 more").
    public var threadBurst: TimeInterval

    /// The default: nothing on, 3 s between vibrations.
    public static let standardGap: TimeInterval = 3
    /// The default: one alert per thread in 30 s.
    public static let standardThreadBurst: TimeInterval = 30

    /// A policy.
    public init(
        doNotDisturb: DoNotDisturb? = nil, quietHours: QuietHours? = nil, mutes: [Mute] = [], minimumGap: TimeInterval = standardGap,
        threadBurst: TimeInterval = standardThreadBurst
    ) {
        self.doNotDisturb = doNotDisturb
        self.quietHours = quietHours
        self.mutes = mutes
        self.minimumGap = minimumGap
        self.threadBurst = threadBurst
    }

    /// What a notification is, as far as the policy cares.
    public struct Subject: Sendable, Hashable {
        /// Its interruption level.
        public var level: InterruptionLevel
        /// The app's name.
        public var app: String
        /// Its thread ("" for none).
        public var thread: String
        /// The filter rule that matched it, if one did (rules are matched on the phone, which
        /// has the whole text).
        public var rule: MatchedRule?

        /// A subject.
        public init(level: InterruptionLevel, app: String, thread: String = "", rule: MatchedRule? = nil) {
            self.level = level
            self.app = app
            self.thread = thread
            self.rule = rule
        }
    }

    /// Do not disturb as it stands at `now`: the source's, or the quiet hours'.
    public func doNotDisturb(at now: Date) -> DoNotDisturb? {
        if let doNotDisturb, doNotDisturb.isOn(at: now) { return doNotDisturb }
        if let quietHours, quietHours.contains(now) { return DoNotDisturb(source: .quietHours, until: quietHours.end(after: now)) }
        return nil
    }

    /// The decision for `subject` arriving at `now`, the last alert having been at `lastAlert`
    /// and the last of its thread at `lastThreadAlert`.
    public func decide(_ subject: Subject, lastAlert: Date?, lastThreadAlert: Date? = nil, at now: Date) -> PolicyDecision {
        if let rule = subject.rule {
            switch rule.action {
            case .drop: return PolicyDecision(.drop, .rule(rule))
            case .silent: return PolicyDecision(.silent, .rule(rule))
            case .alwaysAlert: return PolicyDecision(.breakThrough, .rule(rule))
            }
        }
        if subject.level == .passive { return PolicyDecision(.silent, .passive) }
        if subject.level == .critical { return PolicyDecision(.breakThrough, .critical) }
        if let mute = mutes.first(where: { $0.silences(app: subject.app, thread: subject.thread, at: now) }) {
            return PolicyDecision(.silent, .muted(mute))
        }
        if let doNotDisturb = doNotDisturb(at: now) {
            return subject.level == .timeSensitive
                ? PolicyDecision(.breakThrough, .timeSensitiveThrough(doNotDisturb))
                : PolicyDecision(.silent, .doNotDisturb(doNotDisturb))
        }
        if !subject.thread.isEmpty, let lastThreadAlert {
            let since = now.timeIntervalSince(lastThreadAlert)
            if since >= 0, since < threadBurst { return PolicyDecision(.silent, .burst(secondsSinceLast: since, window: threadBurst)) }
        }
        if let lastAlert {
            let since = now.timeIntervalSince(lastAlert)
            // A clock stepped back makes `since` negative: that says nothing about the gap.
            if since >= 0, since < minimumGap { return PolicyDecision(.silent, .tooSoon(secondsSinceLast: since, minimumGap: minimumGap)) }
        }
        return PolicyDecision(.alert, .nothingHoldsItBack)
    }
}
