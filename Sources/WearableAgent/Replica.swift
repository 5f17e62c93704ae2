public import RelayCore
public import RelayWire

/// The wearable's copy of the phone's centre as a state machine: changes from the phone's
/// log go in, the effects to persist and show come out (Docs/PROTOCOL.md §13).
///
/// Applying a change twice changes nothing: an upsert no newer than the stored revision, or
/// than a removal's tombstone, is stale. Inside a snapshot (`SnapshotBegin` … `SnapshotEnd`)
/// the phone's state is authoritative, so revisions are not compared, nothing alerts, and at
/// the end whatever the snapshot did not mention goes.
public struct Replica: Sendable {
    /// What is held.
    public internal(set) var contents: ReplicaContents

    /// A replica restored from storage.
    public init(contents: ReplicaContents = ReplicaContents()) {
        self.contents = contents
    }

    /// Whether a snapshot is being received.
    public var inSnapshot: Bool { contents.snapshot != nil }

    /// Notes that the snapshot in progress mentioned something: an effect to store, the first time.
    private mutating func mention(_ mention: SnapshotProgress.Mention) -> [ReplicaEffect] {
        guard contents.snapshot?.insert(mention) == true else { return [] }
        return [.snapshotMentioned(mention)]
    }

    /// Applies one change of the phone's log. `catchUp` marks an entry that waited while the
    /// devices were apart and is older than the offline alert window: it never alerts. A new
    /// notification that may alert is decided by `context`'s alert policy.
    public mutating func apply(_ change: Relay_V1_Change, catchUp: Bool = false, context: AlertContext) -> [ReplicaEffect] {
        switch change.kind {
        case .upsert(let upsert): return apply(upsert, catchUp: catchUp, context: context)
        case .remove(let remove): return apply(remove)
        case .appInfo(let app):
            let mentioned = mention(.app(app.key))
            guard contents.apps[app.key] != app.name else { return mentioned }
            contents.apps[app.key] = app.name
            return mentioned + [.appNamed(key: app.key, name: app.name)]
        case .categoryUpsert(let category):
            let mentioned = mention(.category(category.category.key))
            guard contents.categories[category.category.key] != category else { return mentioned }
            contents.categories[category.category.key] = category
            return mentioned + [.categoryChanged(category)]
        case .categoryRemove(let remove):
            guard contents.categories.removeValue(forKey: remove.key) != nil else { return [] }
            return [.categoryRemoved(key: remove.key)]
        case .preferences(let preferences):
            // Item by item, the newest change wins; an echo of the wearable's own changes nothing.
            guard !contents.preferences.merge(preferences.preferences).isEmpty else { return [] }
            return [.preferencesChanged(contents.preferences, shared: true)]
        case .settings(let settings):
            guard contents.settings != settings else { return [] }
            contents.settings = settings
            return [.settingsChanged(settings)]
        case .snapshotBegin(let begin):
            contents.snapshot = SnapshotProgress(epoch: begin.epoch)
            contents.tombstones.removeAll()
            // A new epoch may be a phone that lost its state, or a new phone: it gets every
            // shared wish held here, merged there item by item (an echo changes nothing).
            let shared = Relay_V1_Preferences.split(contents.preferences).map { ReplicaEffect.report(.preferences($0)) }
            return [.snapshotBegan(epoch: begin.epoch), .tombstonesCleared] + shared
        case .snapshotEnd(let end):
            return finishSnapshot(epoch: end.epoch)
        case .scheduleUpsert(let schedule):
            // The log is ordered, so the latest copy wins; revisions are for the record.
            let mentioned = mention(.schedule(schedule.key))
            let existing = contents.schedules[schedule.key]
            guard existing != schedule else { return mentioned }
            contents.schedules[schedule.key] = schedule
            return mentioned + [.scheduleChanged(schedule)] + Self.released(existing?.content.attachments, keeping: schedule.content.attachments)
        case .scheduleRemove(let remove):
            guard let removed = contents.schedules.removeValue(forKey: remove.key) else { return [] }
            return [.scheduleRemoved(key: remove.key)] + Self.released(removed.content.attachments)
        case nil:
            // A kind this version does not know (a newer phone): nothing to do.
            return []
        }
    }

    private mutating func apply(_ upsert: Relay_V1_Upsert, catchUp: Bool, context: AlertContext) -> [ReplicaEffect] {
        let existing = contents.notifications[upsert.key]
        var effects: [ReplicaEffect] = []
        if inSnapshot {
            effects = mention(.notification(upsert.key))
        } else {
            if let existing, existing.revision >= upsert.revision { return [] }
            if let removed = contents.tombstones[upsert.key], removed >= upsert.revision { return [] }
        }
        // The phone's occurrence replaces the wearable's own copy of it (Replica+LocalFiring).
        var firedHere = false
        var answeredHere = false
        if upsert.hasOccurrence {
            let reconciled: [ReplicaEffect]
            (reconciled, firedHere, answeredHere) = reconcile(upsert.occurrence)
            effects += reconciled
        }
        let newOccurrence = upsert.hasOccurrence && existing?.occurrence != upsert.occurrence
        let decision = AlertDecision(
            upsert: upsert, app: contents.appName(upsert.appKey), isUpdate: existing != nil && !newOccurrence, inSnapshot: inSnapshot,
            silent: contents.settings.silent, context: context.with(contents), catchUp: catchUp, firedHere: firedHere)
        // Answered stays answered through a snapshot that resends the same revision and content
        // (a phone whose database was reset hands keys out again), and the phone's copy of an
        // occurrence whose own copy the user answered here is answered too: the phone has not
        // heard of the answer yet, and will remove or update it when it does.
        let record = ReplicaRecord(
            key: upsert.key, revision: upsert.revision, appKey: upsert.appKey, content: upsert.content,
            deliveredAt: upsert.deliveredAt, alerted: decision.alerts || (existing?.alerted ?? false),
            occurrence: upsert.hasOccurrence ? upsert.occurrence : nil,
            answered: answeredHere || existing.map { $0.answered && $0.revision == upsert.revision && $0.content == upsert.content } ?? false,
            defaultAction: upsert.defaultAction)
        contents.notifications[upsert.key] = record
        contents.tombstones.removeValue(forKey: upsert.key)
        effects.append(.stored(record, alert: decision.alerts))
        // A snapshot resends what the wearable holds: only what it changes is decided anew, so
        // a history is not pushed out by copies of what was decided before.
        let resent = inSnapshot && existing?.revision == upsert.revision && existing?.content == upsert.content
        if !resent {
            effects.append(
                .decided(
                    key: upsert.key, revision: upsert.revision, app: contents.appName(upsert.appKey), alerted: decision.alerts,
                    reason: decision.reason, at: WireTime.seconds(context.now)))
        }
        effects += Self.released(existing?.content.attachments, keeping: upsert.content.attachments)
        if upsert.mayAlert {
            // The phone asked for an alert: tell it whether there was one, and why not.
            var alerted = Relay_V1_Alerted()
            alerted.notificationKey = upsert.key
            alerted.revision = upsert.revision
            alerted.alerted = decision.alerts
            alerted.reason = decision.reason
            effects.append(.report(.alerted(alerted)))
        }
        return effects
    }

    /// The user answered a notification on the wearable (an action, a reply, a dismissal). It
    /// stays held, for the phone's removal or update to apply to, but is not shown again, also
    /// not after a restart.
    public mutating func answer(_ key: UInt64) -> [ReplicaEffect] {
        guard contents.notifications[key]?.answered == false else { return [] }
        contents.notifications[key]?.answered = true
        return [.answered(key: key)]
    }

    private mutating func apply(_ remove: Relay_V1_Remove) -> [ReplicaEffect] {
        if let scheduleKey = WireKey.scheduleKey(ofLocal: remove.key) {
            // The phone withdrew the wearable's own copy of an occurrence: the app had removed
            // the request while the devices were apart.
            return withdrawLocal(scheduleKey: scheduleKey)
        }
        if let removed = contents.tombstones[remove.key], removed >= remove.revision { return [] }
        if let existing = contents.notifications[remove.key], existing.revision > remove.revision { return [] }
        let removed = contents.notifications.removeValue(forKey: remove.key)
        contents.tombstones[remove.key] = remove.revision
        return [.removed(key: remove.key, revision: remove.revision)] + Self.released(removed?.content.attachments)
            + pruneTombstones()
    }

    /// How many tombstones are kept: those of the most recent keys. Keys are never reused and
    /// each entry of the log is applied once, so an older tombstone only guards against a phone
    /// that breaks the protocol; keeping every one would grow with every notification ever removed.
    static let tombstoneLimit = 1_024

    /// Forgets the tombstones of the oldest keys (the phone hands keys out in increasing order)
    /// once there are a quarter more than the limit, so that pruning is rare.
    private mutating func pruneTombstones() -> [ReplicaEffect] {
        guard contents.tombstones.count > Self.tombstoneLimit + Self.tombstoneLimit / 4 else { return [] }
        let dropped = Array(contents.tombstones.keys.sorted().prefix(contents.tombstones.count - Self.tombstoneLimit))
        for key in dropped { contents.tombstones.removeValue(forKey: key) }
        return [.tombstonesDropped(dropped)]
    }

    private mutating func finishSnapshot(epoch: UInt64) -> [ReplicaEffect] {
        guard let progress = contents.snapshot, progress.epoch == epoch else { return [] }
        contents.snapshot = nil
        var effects: [ReplicaEffect] = [.snapshotEnded]
        for key in contents.notifications.keys.sorted() where !progress.notifications.contains(key) {
            let removed = contents.notifications.removeValue(forKey: key)
            let revision = removed?.revision ?? 0
            contents.tombstones[key] = revision
            effects.append(.removed(key: key, revision: revision))
            effects += Self.released(removed?.content.attachments)
        }
        for key in contents.categories.keys.sorted() where !progress.categories.contains(key) {
            contents.categories.removeValue(forKey: key)
            effects.append(.categoryRemoved(key: key))
        }
        for key in contents.schedules.keys.sorted() where !progress.schedules.contains(key) {
            let removed = contents.schedules.removeValue(forKey: key)
            effects.append(.scheduleRemoved(key: key))
            effects += Self.released(removed?.content.attachments)
        }
        for key in contents.apps.keys.sorted() where !progress.apps.contains(key) {
            contents.apps.removeValue(forKey: key)
            effects.append(.appRemoved(key: key))
        }
        return effects + pruneTombstones()
    }
}

extension Replica {
    /// `.attachmentsReleased` when a notification or request that went, or was replaced,
    /// referred to attachments its replacement does not: only then may stored files have lost
    /// their last reference, and looking for them reads the whole replica and the store.
    static func released(
        _ before: [Relay_V1_AttachmentRef]?, keeping after: [Relay_V1_AttachmentRef] = []
    ) -> [ReplicaEffect] {
        guard let before, !before.isEmpty else { return [] }
        let kept = Set(after.map(\.sha256))
        return before.allSatisfy { kept.contains($0.sha256) } ? [] : [.attachmentsReleased]
    }
}

/// Something the replica changed: to persist (in the transaction that applies the change),
/// then to show.
public enum ReplicaEffect: Sendable, Equatable {
    /// A notification was stored; `alert` says whether to buzz and wake the screen.
    case stored(ReplicaRecord, alert: Bool)
    /// The user answered a notification; it is no longer shown.
    case answered(key: UInt64)
    /// A notification was removed and left a tombstone.
    case removed(key: UInt64, revision: UInt64)
    /// An app was named.
    case appNamed(key: UInt32, name: String)
    /// An app the snapshot no longer mentions.
    case appRemoved(key: UInt32)
    /// A category was created or changed.
    case categoryChanged(Relay_V1_CategoryUpsert)
    /// A category was removed.
    case categoryRemoved(key: UInt32)
    /// The phone's settings changed.
    case settingsChanged(Relay_V1_Settings)
    /// The preferences shared with the phone (`shared`), or the wearable's own do not disturb,
    /// changed: all of them as they now are.
    case preferencesChanged(SharedPreferences, shared: Bool)
    /// A snapshot started: tombstones are forgotten.
    case tombstonesCleared
    /// The tombstones of these (the oldest) keys are forgotten.
    case tombstonesDropped([UInt64])
    /// A snapshot of this epoch began; what it mentions is recorded until it ends.
    case snapshotBegan(epoch: UInt64)
    /// The snapshot in progress mentioned something for the first time.
    case snapshotMentioned(SnapshotProgress.Mention)
    /// The snapshot in progress ended: its record goes.
    case snapshotEnded
    /// A scheduled request was stored or replaced.
    case scheduleChanged(Relay_V1_ScheduleUpsert)
    /// A scheduled request was removed.
    case scheduleRemoved(key: UInt64)
    /// An event for the phone's record, appended to the wearable's log.
    case report(Relay_V1_WearableEvent.OneOf_Kind)
    /// Occurrences up to this instant are the phone's (the link went up or down).
    case firingFloor(Int64)
    /// The latest occurrence of a request the wearable has handled.
    case handled(scheduleKey: UInt64, through: Int64)
    /// The wearable fired an occurrence by itself, for its record.
    case firedHere(scheduleKey: UInt64, fireDate: Int64, alerted: Bool)
    /// The wearable's own firings of a request up to this date are matched by the phone's.
    case reconciled(scheduleKey: UInt64, through: Int64)
    /// Whether a notification alerted and why, for the decision history (`relayctl why`).
    case decided(key: UInt64, revision: UInt64, app: String, alerted: Bool, reason: String, at: Int64)
    /// Something that referred to attachments went or changed: stored files nothing refers to
    /// any more can be deleted.
    case attachmentsReleased
}
