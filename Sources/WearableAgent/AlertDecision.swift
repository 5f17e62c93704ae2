public import Foundation
public import RelayCore
import RelayWire

/// What the wearable's alert policy needs besides the notification: the user's wishes, the
/// time, and when the last alert was.
public struct AlertContext: Sendable {
    /// The configuration's policy: the gap, the quiet hours until the phone sets others. The
    /// replica adds the wishes it holds (`ReplicaContents.alertPolicy`) when it decides.
    public var policy: AlertPolicy
    /// Whether the manual do not disturb is the one shared with the phone (`do_not_disturb.shared`)
    /// rather than the wearable's own.
    public var sharesDoNotDisturb = true
    /// Now, by the wearable's clock (corrected by the phone's).
    public var now: Date
    /// When the wearable last alerted, and each thread did.
    public var memory: AlertMemory

    /// A context.
    public init(policy: AlertPolicy, now: Date, lastAlert: Date? = nil) {
        self.policy = policy
        self.now = now
        memory = AlertMemory(lastAlert: lastAlert)
    }

    /// When the wearable last alerted, if it has since it started.
    public var lastAlert: Date? {
        get { memory.lastAlert }
        set { memory.lastAlert = newValue }
    }
}

/// When the wearable last alerted, and when each thread did: what the gap between vibrations
/// and a thread's burst count from (Docs/POLICY.md). Kept in memory: after a restart nothing
/// counts as recent.
public struct AlertMemory: Sendable {
    /// The last alert.
    public var lastAlert: Date?
    /// The last alert of each thread, by app and thread key; those older than an hour are let go.
    private var threads: [String: Date] = [:]

    /// A memory of `lastAlert` alone.
    public init(lastAlert: Date? = nil) {
        self.lastAlert = lastAlert
    }

    /// When a notification of `app` in `thread` ("" for none) last alerted.
    func lastAlert(app: String, thread: String) -> Date? {
        thread.isEmpty ? nil : threads[app + "\u{1F}" + thread]
    }

    /// Notes an alert at `now` of a notification of `app` in `thread`.
    mutating func alerted(app: String, thread: String, at now: Date) {
        lastAlert = now
        guard !thread.isEmpty else { return }
        threads = threads.filter { _, date in abs(now.timeIntervalSince(date)) < 3600 }
        threads[app + "\u{1F}" + thread] = now
    }

    /// Notes the alerts among `effects`, whose apps `contents` names.
    public mutating func note(_ effects: [ReplicaEffect], in contents: ReplicaContents, at now: Date) {
        for case .stored(let record, alert: true) in effects {
            alerted(app: contents.appName(record.appKey), thread: AlertDecision.thread(record.content.threadKey), at: now)
        }
    }
}

extension AlertContext {
    /// The context with the wishes `contents` holds in its policy.
    func with(_ contents: ReplicaContents) -> AlertContext {
        var context = self
        context.policy = contents.alertPolicy(base: policy, sharesDoNotDisturb: sharesDoNotDisturb)
        return context
    }
}

extension ReplicaContents {
    /// `base` (the configuration's policy) with the wishes held: the shared ones, and the
    /// wearable's own do not disturb in place of the shared one when that is not shared.
    public func alertPolicy(base: AlertPolicy, sharesDoNotDisturb: Bool) -> AlertPolicy {
        var policy = preferences.applied(to: base, doNotDisturbShared: sharesDoNotDisturb)
        if !sharesDoNotDisturb, let own = ownDoNotDisturb.manualDoNotDisturb { policy.doNotDisturb = own }
        return policy
    }
}

/// Whether an upsert alerts (haptic and a woken screen) on the wearable, and why not
/// (Docs/POLICY.md): first what already happened to it, then the alert policy.
///
/// The phone decides whether a notification *may* alert (its lock state, its settings); the
/// wearable has the last word, because only it knows that it already holds the notification
/// (an update in place never alerts again) or that it is taking a snapshot, and it keeps the
/// user's do not disturb, quiet hours and the gap between vibrations.
struct AlertDecision {
    let alerts: Bool
    /// Why, for the log and the phone's report.
    let reason: String

    init(
        upsert: Relay_V1_Upsert, app: String, isUpdate: Bool, inSnapshot: Bool, silent: Bool, context: AlertContext,
        catchUp: Bool = false, firedHere: Bool = false
    ) {
        let delivery: String? =
            if !upsert.mayAlert {
                upsert.noAlertReason.isEmpty
                    ? "the phone did not ask for an alert" : "the phone did not ask for an alert: \(upsert.noAlertReason.truncated(toUTF8Bytes: 256))"
            }
            else if inSnapshot { "part of a snapshot" }
            else if firedHere { "the wearable fired this occurrence itself while apart" }
            else if catchUp { "it waited while the devices were apart" }
            else if isUpdate { "update in place" }
            else { nil }
        if let delivery {
            alerts = false
            reason = delivery
            return
        }
        // The phone matched its filter rules, which have the whole text: one that always alerts
        // goes through the wearable's do not disturb, mutes and gap too.
        let rule = upsert.alwaysAlertRule.isEmpty ? nil : MatchedRule(name: upsert.alwaysAlertRule.truncated(toUTF8Bytes: 256), action: .alwaysAlert)
        let decision = Self.policy(
            level: InterruptionLevel(upsert.content.interruptionLevel), app: app, thread: Self.thread(upsert.content.threadKey),
            rule: rule, silent: silent, context: context)
        alerts = decision.outcome.alerts
        reason = decision.reason.description
    }

    /// How a mute names a thread on the wearable: by its key, which the phone assigns per app and
    /// thread ("" for none).
    static func thread(_ key: UInt32) -> String { key == 0 ? "" : String(key) }

    /// The policy's decision, the phone's silent sync counting as do not disturb when nothing
    /// else has turned it on.
    static func policy(
        level: InterruptionLevel, app: String, thread: String, rule: MatchedRule? = nil, silent: Bool, context: AlertContext
    ) -> PolicyDecision {
        var policy = context.policy
        if silent, policy.doNotDisturb(at: context.now) == nil { policy.doNotDisturb = DoNotDisturb(source: .silentSync) }
        return policy.decide(
            AlertPolicy.Subject(level: level, app: app, thread: thread, rule: rule), lastAlert: context.memory.lastAlert,
            lastThreadAlert: context.memory.lastAlert(app: app, thread: thread), at: context.now)
    }
}

extension ReplicaEffect {
    /// Whether the effect changes the wishes the policy adds.
    var changesPreferences: Bool {
        if case .preferencesChanged = self { true } else { false }
    }

    /// Whether the effect is a notification stored with an alert: the gap between vibrations
    /// counts from it.
    public var alerts: Bool {
        if case .stored(_, alert: true) = self { true } else { false }
    }
}
