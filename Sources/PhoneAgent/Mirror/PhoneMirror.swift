import Foundation
import RelayCore
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
    /// How to mirror.
    public var settings: MirrorSettings
    /// Categories and apps as last sent in this log epoch, so unchanged ones are not resent.
    private var sentCategories: [UInt64: Relay_V1_Category] = [:]
    private var sentApps: [UInt64: String] = [:]

    /// A mirror restored from storage.
    public init(keys: WireKeyTable = WireKeyTable(), mirrored: [UInt32: Mirrored] = [:], settings: MirrorSettings = MirrorSettings()) {
        self.keys = keys
        self.mirrored = mirrored
        self.settings = settings
    }

    /// A notification was delivered or replaced in the centre.
    public mutating func posted(_ item: MirrorItem, replaced: Bool, locked: Bool) -> Outcome {
        let existing = mirrored[item.centreID]
        if item.isSilent {
            guard existing != nil else { return Outcome(decision: "not mirrored: a silent notification") }
            return removed(centreID: item.centreID, reason: .withdrawn)
        }
        if existing == nil, !locked, settings.whenUnlocked == .none {
            return Outcome(decision: "not mirrored: the phone is unlocked")
        }
        var outcome = Outcome(decision: "")
        let upsert = makeUpsert(item, existing: existing, into: &outcome)
        let mayAlert = locked && existing == nil && !replaced
        var change = Relay_V1_Change()
        change.upsert = upsert
        change.upsert.mayAlert = mayAlert
        outcome.changes.append(change)
        outcome.mirrored = Mirrored(key: upsert.key, revision: upsert.revision)
        mirrored[item.centreID] = outcome.mirrored
        outcome.decision =
            existing != nil ? "updated in place (no alert)"
            : mayAlert ? "mirrored; may alert (phone locked)"
            : locked ? "mirrored without alert (a replacement)" : "mirrored silently (phone unlocked)"
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
    public mutating func snapshot(_ items: [MirrorItem], epoch: UInt64) -> Outcome {
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
            upsert.mayAlert = false
            var change = Relay_V1_Change()
            change.upsert = upsert
            outcome.changes.append(change)
            mirrored[item.centreID] = Mirrored(key: upsert.key, revision: upsert.revision)
        }
        var end = Relay_V1_Change()
        end.snapshotEnd.epoch = epoch
        outcome.changes.append(end)
        return outcome
    }

    /// The settings as a change.
    public func settingsChange() -> Relay_V1_Change {
        var change = Relay_V1_Change()
        change.settings.hidePreviews = settings.hidePreviews
        change.settings.language = settings.language
        return change
    }

    /// Forgets what was mirrored (unpairing): a new partner starts from nothing.
    public mutating func forgetMirrored() {
        mirrored.removeAll()
        sentApps.removeAll()
        sentCategories.removeAll()
    }

    /// The centre id of a wire key, to apply the wearable's responses.
    public func centreID(ofKey key: UInt64) -> UInt32? {
        mirrored.first { $0.value.key == key }?.key
    }

    private mutating func makeUpsert(_ item: MirrorItem, existing: Mirrored?, into outcome: inout Outcome) -> Relay_V1_Upsert {
        let appKey = keys.key(.app, item.appName, assigned: &outcome.assigned)
        if sentApps[appKey] != item.appName {
            sentApps[appKey] = item.appName
            var change = Relay_V1_Change()
            change.appInfo.key = UInt32(truncatingIfNeeded: appKey)
            change.appInfo.name = item.appName
            outcome.changes.append(change)
        }
        var categoryKey: UInt64 = 0
        if let category = item.category, !category.actions.isEmpty {
            categoryKey = keys.key(.category, item.appName + "\u{1F}" + category.identifier, assigned: &outcome.assigned)
            let wire = Relay_V1_Category(category, key: UInt32(truncatingIfNeeded: categoryKey))
            if sentCategories[categoryKey] != wire {
                sentCategories[categoryKey] = wire
                var change = Relay_V1_Change()
                change.categoryUpsert.appKey = UInt32(truncatingIfNeeded: appKey)
                change.categoryUpsert.category = wire
                outcome.changes.append(change)
            }
        }
        let thread = item.content.threadIdentifier
        let threadKey = thread.isEmpty ? 0 : keys.key(.thread, item.appName + "\u{1F}" + thread, assigned: &outcome.assigned)
        var upsert = Relay_V1_Upsert()
        upsert.key = existing?.key ?? keys.nextNotificationKey(assigned: &outcome.assigned)
        upsert.revision = (existing?.revision ?? 0) + 1
        upsert.appKey = UInt32(truncatingIfNeeded: appKey)
        upsert.content = Relay_V1_Content(
            item.content, categoryKey: UInt32(truncatingIfNeeded: categoryKey), threadKey: UInt32(truncatingIfNeeded: threadKey))
        upsert.deliveredAt = WireTime.seconds(item.deliveredAt)
        return upsert
    }
}
