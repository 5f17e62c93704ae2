import Foundation
public import enum RelayCore.ResponseAction
public import struct RelayCore.SharedPreferences
import RelayStore
public import RelayWire

extension PhoneCoordinator {
    /// What the centre held before an operation, to see what the operation changed; the
    /// notifications themselves are followed by the centre's journal, not copied.
    struct Snapshot {
        let apps: AppRequests

        init(_ centre: NotificationCentre) {
            apps = centre.apps
        }
    }

    /// Hands what changed in the centre since `before` to the mirror, with the lock held so
    /// the log keeps the centre's order. With `seq`, the change is the effect of that entry of
    /// the wearable's log and commits with its cursor.
    /// `then` runs once the changes are on disk (at once without a mirror), in the order of the calls.
    /// `outbox`: signals stored with the changes, to emit afterwards (`SignalOutboxTable`).
    func mirrorChanges(
        since before: Snapshot, _ state: inout State, signals: [NotificationSignal], by side: ActingSide,
        applying seq: UInt64? = nil, also extra: [MirrorCoordinator.CentreChange] = [], outbox: OutboxBatch? = nil,
        then: (@Sendable () -> Void)? = nil
    ) -> CommitTicket? {
        guard let mirror else {
            CentreChanges.discard(from: &state.centre)
            then?()
            return nil
        }
        let taken = CentreChanges.take(
            from: &state.centre, appsBefore: before.apps, signals: signals, by: side, deliveredDates: &state.deliveredDates,
            now: (Date(), .now), monitoring: isMonitoring.load(ordering: .relaxed))
        let apps = taken.apps
        var changes = taken.changes
        changes += extra
        // Something to run after the commit goes through the committer even with nothing to
        // store, so that it keeps its place among the others.
        guard !changes.isEmpty || seq != nil || apps != nil || then != nil || outbox != nil else { return nil }
        return mirror.record(
            changes, locked: isLocked(), policy: alertPolicy(), filter: filterRules(), applying: seq, apps: apps, outbox: outbox, then: then)
    }
}

extension PhoneCoordinator: PhoneLinkOwner {
    /// A response from the wearable: the centre acts as for relayctl, the app gets its
    /// signal, and the entry's cursor commits with the resulting changes.
    ///
    /// The entry counts as applied (and may be acknowledged) only once it is on disk, so this
    /// returns only then; the centre's lock is released before that wait. An overlapping
    /// connection that delivers the same entry meanwhile finds it claimed
    /// (`MirrorCoordinator.isApplied`) and waits for that same commit (`pendingClaim`), so that
    /// neither acknowledges it before it is durable. The app hears of
    /// the response only once it is on disk, from the committer, in commit order among every
    /// other signal. The signals are stored with the entry and deleted once emitted: a crash in
    /// between emits them at the next start (`emitStoredSignals`).
    public func apply(seq: UInt64, event: Relay_V1_WearableEvent) throws {
        guard let mirror else { return }
        let (ticket, atMonitoredServer) = try state.withLock {
            state throws -> (CommitTicket?, (@Sendable () -> Void)?) in
            commitDeliveries(&state)
            let pending = mirror.pendingClaim()
            guard try !mirror.isApplied(seq: seq) else { return (pending, nil) }
            if case .firedLocally(let fired) = event.kind {
                return (adopt(fired, seq: seq, mirror: mirror, &state), nil)
            }
            if case .preferences(let change) = event.kind {
                // Merged here and into what is stored, with the entry's cursor; nothing goes
                // back: the wearable has it already.
                if mergePreferences(change.preferences) {
                    effects.log(.info, "relay-phone: the wearable changed the alert settings: \(change.preferences)")
                }
                return (mirror.record([], locked: isLocked(), applying: seq, preferencesChange: change.preferences), nil)
            }
            guard case .response(let response) = event.kind else {
                // Alert reports are for the record only (the log, `relayctl why --phone`). One
                // comes for every notification the wearable alerts for; a sync of its own for
                // each would double the phone's.
                var reported: DecisionHistoryTable.Entry?
                if case .alerted(let alerted) = event.kind {
                    if !alerted.alerted {
                        effects.log(.info, "relay-phone: the wearable did not alert for \(alerted.notificationKey): \(alerted.reason)")
                    }
                    // Kept by the phone's clock, as the rest of its history: the wearable's may be wrong.
                    reported = mirror.decision(reported: alerted, at: WireTime.seconds(Date())) { id in state.centre.delivered[id]?.appName }
                }
                // The cursor moves by a write of its own only after the entry before it is on
                // disk; while an overlapping connection's entry is still being committed, the
                // report's claim queues behind it.
                guard pending == nil else { return (mirror.record([], locked: isLocked(), applying: seq, reported: reported), nil) }
                try mirror.recordReportApplied(seq: seq, decision: reported)
                return (nil, nil)
            }
            let before = Snapshot(state.centre)
            let id = mirror.centreID(answeredBy: response, in: state.centre)
            let closeThere = closeAtMonitoredServer.current
            let outcome = state.centre.apply(response, to: id, monitoring: closeThere != nil)
            effects.log(.info, "relay-phone: \(outcome)")
            let signals = outcome.signals
            var atMonitoredServer: (@Sendable () -> Void)?
            if case .closeAtMonitoredServer(let id, _) = outcome, let closeThere { atMonitoredServer = { closeThere(id) } }
            let dismissed = response.action == ResponseAction.dismissIdentifier
            retireTimers(of: signals, &state)
            guard outcome.isAnnounced, !signals.isEmpty else {
                let ticket = mirrorChanges(since: before, &state, signals: signals, by: .wearable(dismissed: dismissed), applying: seq)
                return (ticket, atMonitoredServer)
            }
            let outbox = OutboxBatch(signals: signals.map(\.stored), bus: busID.withLock { $0 })
            let committer = mirror.link.committer
            let ticket = mirrorChanges(
                since: before, &state, signals: signals, by: .wearable(dismissed: dismissed), applying: seq, outbox: outbox,
                then: { [effects] in
                    effects.emit(signals)
                    if let through = outbox.storedThrough {
                        committer.submit { db in try SignalOutboxTable.remove(db, through: through) }
                    }
                })
            return (ticket, atMonitoredServer)
        }
        try ticket?.waitBlocking()
        atMonitoredServer?()
    }

    /// The wearable fired an occurrence by itself while apart: recorded, and taken over by the
    /// centre if the phone has not fired it yet (`NotificationCentre.adoptOccurrence`).
    private func adopt(_ fired: Relay_V1_FiredLocally, seq: UInt64, mirror: MirrorCoordinator, _ state: inout State) -> CommitTicket? {
        let before = Snapshot(state.centre)
        var adoption = NotificationCentre.Adoption.alreadyFired
        if let name = mirror.scheduleName(ofKey: fired.scheduleKey) {
            adoption = state.centre.adoptOccurrence(
                appID: name.appName, identifier: name.identifier, fireDate: WireTime.date(fired.fireDate), now: Date())
            effects.log(.info, "relay-phone: the wearable fired \(name.appName)/\(name.identifier) at \(fired.fireDate) while apart: \(adoption)")
        }
        let change = MirrorCoordinator.CentreChange.firedOnWearable(
            scheduleKey: fired.scheduleKey, fireDate: fired.fireDate, alerted: fired.alerted, withdraw: adoption == .withdrawn)
        return mirrorChanges(since: before, &state, signals: [], by: .phone, applying: seq, also: [change])
    }

    /// Changes the shared wishes here (`relayctl dnd`, `mutes`, `quiet-hours`): `change` makes
    /// the change in the agent's state and returns it; it is stored and sent to the wearable
    /// with the centre's lock held, so that no new epoch's snapshot comes between. Returns once
    /// it is on disk; whether anything changed.
    @discardableResult
    public func changePreferences(_ change: () -> SharedPreferences) throws -> Bool {
        guard let mirror else { return !change().isEmpty }
        let ticket = state.withLock { state -> CommitTicket? in
            let made = change()
            guard !made.isEmpty else { return nil }
            return mirror.record([], locked: isLocked(), preferencesChange: made, sendingPreferences: true)
        }
        try ticket?.waitBlocking()
        return ticket != nil
    }

    public func startNewEpoch(newPartner: Bool) throws {
        try startNewEpoch(newPartner: newPartner, skippingKeys: false)
    }

    /// The filter rules were loaded: each scheduled request whose content now matches another
    /// rule is mirrored again with it, since the wearable applies that rule to the occurrences it
    /// fires itself (a dropped one leaves the wearable, one no longer dropped comes back). At
    /// start every request counts as changed, its rule not being stored. Returns once it is on disk.
    public func filterRulesChanged() throws {
        guard let mirror else { return }
        let ticket = state.withLock { state -> CommitTicket? in
            // Read under the lock: of two reloads at once, the later rules are recorded last.
            let filter = filterRules()
            let changed = mirror.schedules(Self.scheduleItems(state.centre.apps), changedUnder: filter)
            guard !changed.isEmpty else { return nil }
            return mirror.record(changed.map { .scheduled($0) }, locked: isLocked(), filter: filter)
        }
        try ticket?.waitBlocking()
    }

    /// Every pending scheduled request, as the mirror takes them.
    private static func scheduleItems(_ apps: AppRequests) -> [ScheduleItem] {
        apps.pending.list().compactMap { $0.scheduleItem(category: apps.category($0.request.content.categoryIdentifier, of: $0.appID)) }
    }

    /// After a power cut that may have lost commits the wearable already had (`RunRecord`): a
    /// new epoch, whose snapshot replaces whatever the wearable holds, and keys that go on far
    /// past any it may hold. Runs before the link and the bus start.
    public func recoverFromLostWrites() throws {
        try startNewEpoch(newPartner: false, skippingKeys: true)
    }

    private func startNewEpoch(newPartner: Bool, skippingKeys: Bool) throws {
        guard let mirror else { return }
        let ticket = state.withLock { state in
            commitDeliveries(&state)
            let monitoring = isMonitoring.load(ordering: .relaxed)
            let items = state.centre.list.map { MirrorItem($0, deliveredAt: state.deliveredDates[$0.id] ?? Date(), monitoring: monitoring) }
            return mirror.startNewEpoch(
                items: items, schedules: Self.scheduleItems(state.centre.apps), newPartner: newPartner, skippingKeys: skippingKeys,
                filter: filterRules())
        }
        try ticket.waitBlocking()
    }
}
