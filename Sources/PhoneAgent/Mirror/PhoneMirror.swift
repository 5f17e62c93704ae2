public import Foundation
public import RelayCore
public import RelayWire

/// The mirror policy (Docs/PHONE.md, "Mirroring") as a state machine: what happens in the
/// centre goes in, the changes for the wearable's replica come out, with the keys and
/// revisions to persist alongside them.
///
/// - Locked: a new notification may alert; unlocked: it stays on the phone, or with
///   `whenUnlocked = .silent` it is synced without alerting.
/// - An update in place never alerts again; silent notifications are never mirrored.
/// - A removal on the phone removes it on the wearable (with a higher revision, so a late
///   upsert cannot bring it back).
public struct PhoneMirror: Sendable {
    /// A notification the wearable has (or will have once the log is delivered).
    public struct Mirrored: Sendable, Hashable {
        /// Its key on the wire.
        public var key: UInt64
        /// The last revision sent.
        public var revision: UInt64

        /// Creates a record.
        public init(key: UInt64, revision: UInt64) {
            self.key = key
            self.revision = revision
        }
    }

    /// What one event produced.
    public struct Outcome: Sendable {
        /// Changes to append to the log, in order.
        public var changes: [Relay_V1_Change] = []
        /// Keys assigned, to persist with the changes.
        public var assigned: [WireKeyTable.Assignment] = []
        /// The notification's mirror record after the event, to persist (`nil`: not mirrored
        /// or removed).
        public var mirrored: Mirrored?
        /// For the log: what was decided and why.
        public var decision: String
    }

    /// The keys assigned so far.
    public private(set) var keys: WireKeyTable
    /// What is mirrored, by centre id.
    public private(set) var mirrored: [UInt32: Mirrored]
    /// The scheduled requests mirrored, by key name (app and identifier).
    public private(set) var schedules: [String: Mirrored] = [:]
    /// The filter rule each scheduled request was last mirrored (or kept off the wearable) with,
    /// by key name; a request restored from storage has none here, its rule not being stored.
    public private(set) var scheduleRules: [String: MatchedRule?] = [:]
    /// How to mirror.
    public var settings: MirrorSettings
    /// Categories and apps as last sent in this log epoch, so unchanged ones are not resent.
    private var sentCategories: [UInt64: Relay_V1_Category] = [:]
    private var sentApps: [UInt64: String] = [:]

    /// A mirror restored from storage; `schedules` are the key names of the scheduled
    /// requests the wearable holds.
    public init(
        keys: WireKeyTable = WireKeyTable(), mirrored: [UInt32: Mirrored] = [:], schedules: [String] = [],
        settings: MirrorSettings = MirrorSettings()
    ) {
        self.keys = keys
        self.mirrored = mirrored
        self.settings = settings
        for name in schedules {
            if let key = keys.existingKey(.schedule, name) { self.schedules[name] = Mirrored(key: key, revision: 1) }
        }
    }

    /// A scheduled request was added or replaced: the wearable keeps a copy to fire while apart.
    /// Mirrored whatever the lock state, because it matters exactly when the phone is away.
    /// The filter rule its content matched (`item.rule`) goes with it, for the occurrences the
    /// wearable fires; one that drops keeps it off the wearable (and takes it off, if it was there).
    public mutating func scheduled(_ item: ScheduleItem) -> Outcome {
        var outcome = Outcome(decision: "")
        guard let trigger = try? Relay_V1_Trigger(item.trigger) else {
            // Settled under its rule too: a reload has nothing to send for it.
            scheduleRules[item.keyName] = .some(item.rule)
            return Outcome(decision: "schedule not mirrored: a \(item.trigger.kind) trigger is not fired by the wearable")
        }
        if let rule = item.rule, rule.action == .drop {
            let decision = "schedule not mirrored: \(PolicyDecision.Reason.rule(rule))"
            outcome = unscheduled(appName: item.appName, identifier: item.identifier)
            outcome.decision = decision
            scheduleRules[item.keyName] = rule
            return outcome
        }
        let (appKey, content) = wireContent(item.appName, item.content, item.category, item.attachments, into: &outcome)
        let existing = schedules[item.keyName]
        var change = Relay_V1_Change()
        change.scheduleUpsert.key = existing?.key ?? keys.key(.schedule, item.keyName, assigned: &outcome.assigned)
        change.scheduleUpsert.revision = (existing?.revision ?? 0) + 1
        change.scheduleUpsert.appKey = appKey
        change.scheduleUpsert.content = content
        change.scheduleUpsert.trigger = trigger
        change.scheduleUpsert.scheduledAt = WireTime.seconds(item.scheduledAt)
        change.scheduleUpsert.timeZone = item.timeZone
        if let rule = item.rule {
            let name = rule.name.truncated(toUTF8Bytes: 256)
            if rule.action == .alwaysAlert { change.scheduleUpsert.alwaysAlertRule = name } else { change.scheduleUpsert.silentRule = name }
        }
        schedules[item.keyName] = Mirrored(key: change.scheduleUpsert.key, revision: change.scheduleUpsert.revision)
        scheduleRules[item.keyName] = .some(item.rule)
        outcome.changes.append(change)
        outcome.decision = existing == nil ? "schedule mirrored" : "schedule replaced"
        return outcome
    }

    /// A scheduled request left the phone's pending list (removed, or fired for the last time).
    public mutating func unscheduled(appName: String, identifier: String) -> Outcome {
        let name = AppRequests.name(appID: appName, identifier: identifier)
        scheduleRules.removeValue(forKey: name)
        guard let existing = schedules.removeValue(forKey: name) else {
            return Outcome(decision: "nothing to unschedule: it was not mirrored")
        }
        var change = Relay_V1_Change()
        change.scheduleRemove.key = existing.key
        return Outcome(changes: [change], decision: "schedule removed")
    }

    /// A notification was delivered or replaced in the centre. While the phone's do not disturb
    /// is on, or its app or thread is muted (`policy`, at `now`), one that would alert arrives
    /// silently unless it is time-sensitive or critical (Docs/POLICY.md); the wearable decides
    /// the rest. The filter `rule` that matched it, if one did, decides first: a dropped one
    /// does not reach the wearable (and leaves it, if an earlier version had), a silent one
    /// asks no alert, and one that always alerts says so, for the wearable to alert through.
    public mutating func posted(
        _ item: MirrorItem, replaced: Bool, locked: Bool, policy: AlertPolicy? = nil, rule: MatchedRule? = nil, at now: Date
    ) -> Outcome {
        let existing = mirrored[item.centreID]
        if item.isSilent {
            guard existing != nil else { return Outcome(decision: "not mirrored: a silent notification") }
            return removed(centreID: item.centreID, reason: .withdrawn)
        }
        if let rule, rule.action == .drop {
            let decision = "not mirrored: \(PolicyDecision.Reason.rule(rule))"
            guard existing != nil else { return Outcome(decision: decision) }
            var outcome = removed(centreID: item.centreID, reason: .withdrawn)
            outcome.decision = decision
            return outcome
        }
        if existing == nil, !locked, settings.whenUnlocked == .none {
            return Outcome(decision: "not mirrored: the phone is unlocked and mirror.when_unlocked is \"none\" (relayctl status --phone says which lock source decides)")
        }
        var outcome = Outcome(decision: "")
        let upsert = makeUpsert(item, existing: existing, into: &outcome)
        // Each occurrence of a scheduled request is a delivery of its own, even when it replaces
        // the previous one in place; one the wearable fired and alerted for while apart is not.
        let occurrence = item.occurrence?.occurrence
        let newDelivery = occurrence.map { !$0.firedOnWearable } ?? (existing == nil && !replaced)
        var mayAlert = locked && newDelivery
        var heldBack: PolicyDecision?
        var alwaysAlertRule = ""
        if mayAlert, policy != nil || rule != nil {
            // A thread is muted by its key, which both devices know it by.
            let thread = upsert.content.threadKey == 0 ? "" : String(upsert.content.threadKey)
            let decision = (policy ?? AlertPolicy(minimumGap: 0)).decide(
                AlertPolicy.Subject(level: item.content.interruptionLevel, app: item.appName, thread: thread, rule: rule), lastAlert: nil,
                at: now)
            switch decision.reason {
            case .doNotDisturb, .muted:
                mayAlert = false
                heldBack = decision
            case .rule(let matched) where matched.action == .silent:
                mayAlert = false
                heldBack = decision
            case .rule(let matched) where matched.action == .alwaysAlert:
                alwaysAlertRule = matched.name
            default:
                break
            }
        }
        var change = Relay_V1_Change()
        change.upsert = upsert
        change.upsert.mayAlert = mayAlert
        change.upsert.alwaysAlertRule = alwaysAlertRule.truncated(toUTF8Bytes: 256)
        if let heldBack {
            change.upsert.noAlertReason = heldBack.reason.description.truncated(toUTF8Bytes: 256)
        } else if !locked, newDelivery {
            change.upsert.noAlertReason = "the phone was unlocked"
        }
        outcome.changes.append(change)
        outcome.mirrored = Mirrored(key: upsert.key, revision: upsert.revision)
        mirrored[item.centreID] = outcome.mirrored
        outcome.decision =
            heldBack.map { "mirrored without alert: \($0.reason)" }
            ?? (alwaysAlertRule.isEmpty ? nil : "mirrored; always alerts (\(PolicyDecision.Reason.rule(rule ?? MatchedRule(name: alwaysAlertRule, action: .alwaysAlert))))")
            ?? (occurrence?.firedOnWearable == true ? "mirrored without alert (the wearable fired it while apart)"
            : mayAlert ? (occurrence != nil ? "occurrence mirrored; may alert (phone locked)" : "mirrored; may alert (phone locked)")
            : existing != nil ? "updated in place (no alert)"
            : locked ? "mirrored without alert (a replacement)" : "mirrored silently (phone unlocked)")
        return outcome
    }

    /// A notification left the centre.
    public mutating func removed(centreID: UInt32, reason: Relay_V1_RemoveReason) -> Outcome {
        guard let existing = mirrored.removeValue(forKey: centreID) else {
            return Outcome(decision: "nothing to remove: it was not mirrored")
        }
        var remove = Relay_V1_Remove()
        remove.key = existing.key
        remove.revision = existing.revision + 1
        remove.reason = reason
        var change = Relay_V1_Change()
        change.remove = remove
        return Outcome(changes: [change], decision: "removed (\(reason))")
    }

    /// The whole mirrored state as a snapshot, the first entries of a new log epoch: the
    /// settings, then every mirrored notification (with its app and category), never alerting.
    /// `items` are the centre's notifications; those not mirrored are left out.
    public mutating func snapshot(_ items: [MirrorItem], schedules scheduled: [ScheduleItem] = [], epoch: UInt64) -> Outcome {
        sentApps.removeAll()
        sentCategories.removeAll()
        var outcome = Outcome(decision: "snapshot of \(items.count) notifications")
        var begin = Relay_V1_Change()
        begin.snapshotBegin.epoch = epoch
        outcome.changes.append(begin)
        outcome.changes.append(settingsChange())
        for item in items.sorted(by: { $0.centreID < $1.centreID }) {
            guard let existing = mirrored[item.centreID] else { continue }
            var upsert = makeUpsert(item, existing: existing, into: &outcome)
            // Nothing changed: the revision stays, so a notification answered on the wearable
            // is not shown again there (PROTOCOL.md §13.1).
            upsert.revision = existing.revision
            upsert.mayAlert = false
            var change = Relay_V1_Change()
            change.upsert = upsert
            outcome.changes.append(change)
            mirrored[item.centreID] = Mirrored(key: upsert.key, revision: upsert.revision)
        }
        // Scheduled requests are mirrored whatever the lock state, so all of them are in it.
        schedules.removeAll()
        scheduleRules.removeAll()
        for item in scheduled.sorted(by: { $0.keyName < $1.keyName }) {
            let part = self.scheduled(item)
            outcome.changes += part.changes
            outcome.assigned += part.assigned
        }
        var end = Relay_V1_Change()
        end.snapshotEnd.epoch = epoch
        outcome.changes.append(end)
        return outcome
    }

    /// Shared wishes as changes, each small enough for a frame.
    public static func preferencesChanges(_ preferences: SharedPreferences) -> [Relay_V1_Change] {
        Relay_V1_Preferences.split(preferences).map { part in Relay_V1_Change.with { $0.preferences = part } }
    }

    /// The settings as a change.
    public func settingsChange() -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.settings.hidePreviews = settings.hidePreviews
        change.settings.language = settings.language
        change.settings.cannedReplies = settings.cannedReplies
        return change
    }

    /// Moves the key counters past every key a lost commit may have handed out
    /// (`WireKeyTable.skipAhead`); returns the counters to store.
    public mutating func skipKeysAhead() -> [WireKeyTable.Assignment] {
        var assigned: [WireKeyTable.Assignment] = []
        keys.skipAhead(assigned: &assigned)
        return assigned
    }

    /// Forgets what was mirrored (unpairing): a new partner starts from nothing.
    public mutating func forgetMirrored() {
        mirrored.removeAll()
        schedules.removeAll()
        sentApps.removeAll()
        sentCategories.removeAll()
    }

    /// The wearable fired an occurrence of a request the app has removed since: its copy on the
    /// wearable (under the wearable's own key for the request) is withdrawn.
    public func withdrawOccurrence(scheduleKey: UInt64) -> Outcome {
        var change = Relay_V1_Change()
        change.remove.key = WireKey.localOccurrence(scheduleKey: scheduleKey)
        change.remove.revision = 1
        change.remove.reason = .withdrawn
        return Outcome(changes: [change], decision: "the wearable's occurrence withdrawn: the app removed the request")
    }

    /// The app and identifier of a scheduled request's wire key.
    public func scheduleName(ofKey key: UInt64) -> (appName: String, identifier: String)? {
        guard let name = keys.name(of: key, .schedule), let separator = name.firstIndex(of: "\u{1F}") else { return nil }
        return (String(name[..<separator]), String(name[name.index(after: separator)...]))
    }

    /// The centre id of a wire key, to apply the wearable's responses.
    public func centreID(ofKey key: UInt64) -> UInt32? {
        mirrored.first { $0.value.key == key }?.key
    }

    private mutating func makeUpsert(_ item: MirrorItem, existing: Mirrored?, into outcome: inout Outcome) -> Relay_V1_Upsert {
        let (appKey, content) = wireContent(item.appName, item.content, item.category, item.attachments, into: &outcome)
        var upsert = Relay_V1_Upsert()
        upsert.key = existing?.key ?? keys.nextNotificationKey(assigned: &outcome.assigned)
        upsert.revision = (existing?.revision ?? 0) + 1
        upsert.appKey = appKey
        upsert.content = content
        upsert.deliveredAt = WireTime.seconds(item.deliveredAt)
        upsert.defaultAction = item.hasDefaultAction
        if let origin = item.occurrence {
            upsert.occurrence.scheduleKey = keys.key(
                .schedule, AppRequests.name(appID: item.appName, identifier: origin.identifier), assigned: &outcome.assigned)
            upsert.occurrence.fireDate = WireTime.seconds(origin.occurrence.fireDate)
        }
        return upsert
    }

    /// Content on the wire with its app, category and thread keys; the app's name and the
    /// category go first, as changes of their own, when the wearable does not have them yet.
    private mutating func wireContent(
        _ appName: String, _ content: NotificationContent, _ category: NotificationCategory?,
        _ attachments: [Relay_V1_AttachmentRef], into outcome: inout Outcome
    ) -> (appKey: UInt32, content: Relay_V1_Content) {
        let appKey = keys.key(.app, appName, assigned: &outcome.assigned)
        if sentApps[appKey] != appName {
            sentApps[appKey] = appName
            var change = Relay_V1_Change()
            change.appInfo.key = UInt32(truncatingIfNeeded: appKey)
            change.appInfo.name = appName
            outcome.changes.append(change)
        }
        var categoryKey: UInt64 = 0
        if let category, !category.actions.isEmpty {
            categoryKey = keys.key(.category, appName + "\u{1F}" + category.identifier, assigned: &outcome.assigned)
            let wire = Relay_V1_Category(category, key: UInt32(truncatingIfNeeded: categoryKey))
            if sentCategories[categoryKey] != wire {
                sentCategories[categoryKey] = wire
                var change = Relay_V1_Change()
                change.categoryUpsert.appKey = UInt32(truncatingIfNeeded: appKey)
                change.categoryUpsert.category = wire
                outcome.changes.append(change)
            }
        }
        let thread = content.threadIdentifier
        let threadKey = thread.isEmpty ? 0 : keys.key(.thread, appName + "\u{1F}" + thread, assigned: &outcome.assigned)
        let wire = Relay_V1_Content(
            content, categoryKey: UInt32(truncatingIfNeeded: categoryKey), threadKey: UInt32(truncatingIfNeeded: threadKey),
            attachments: attachments)
        return (UInt32(truncatingIfNeeded: appKey), wire)
    }
}
