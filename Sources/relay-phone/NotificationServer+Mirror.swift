import Foundation
import PhoneAgent
import enum RelayCore.ResponseAction
import RelayFreedesktop
import RelayStore
import RelayWire

/// Who acted, which decides how a removal is told to the wearable.
enum ActingSide {
    /// The phone: its apps, its timers, relayctl.
    case phone
    /// The wearable's user: a dismissal, or an action or reply.
    case wearable(dismissed: Bool)

    func removeReason(_ reason: CloseReason?) -> Relay_V1_RemoveReason {
        switch (self, reason) {
        case (_, .expired?): .expired
        case (.phone, .dismissedByUser?): .dismissedOnPhone
        case (.wearable(let dismissed), .dismissedByUser?): dismissed ? .dismissedOnWearable : .acted
        case (_, .closedByCall?), (_, .undefined?), (_, nil): .withdrawn
        }
    }
}

extension NotificationServer {
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
        // Taken whether or not anything is mirrored, so the journal never grows.
        let changed = state.centre.takeChanges()
        let silentlyEvicted = state.centre.takeSilentEvictions()
        guard let mirror else {
            then?()
            return nil
        }
        // The apps' categories and scheduled requests change rarely; stored when they do.
        let apps = state.centre.apps != before.apps ? AppRequestsRecord(state.centre.apps).encoded() : nil
        var reasons: [UInt32: CloseReason] = [:]
        for case .closed(let id, let reason) in signals { reasons[id] = reason }
        // Closed to keep within the limits, with no signal to say so (Relay's own API's).
        for id in silentlyEvicted { reasons[id] = .expired }
        var changes: [MirrorCoordinator.CentreChange] = []
        for (id, existed) in changed.sorted(by: { $0.key < $1.key }) {
            if let notification = state.centre.delivered[id] {
                let date = state.deliveredDates[id] ?? Date()
                state.deliveredDates[id] = date
                changes.append(
                    .posted(
                        MirrorItem(notification, deliveredAt: date), replaced: existed,
                        record: CentreRecord(notification, deliveredAt: date, now: (Date(), .now)).encoded()))
            } else if existed {
                state.deliveredDates[id] = nil
                changes.append(.removed(centreID: id, reason: side.removeReason(reasons[id])))
            }
        }
        if apps != nil { changes += scheduleChanges(from: before.apps.pending, to: state.centre.apps) }
        changes += extra
        // Something to run after the commit goes through the committer even with nothing to
        // store, so that it keeps its place among the others.
        guard !changes.isEmpty || seq != nil || apps != nil || then != nil || outbox != nil else { return nil }
        return mirror.record(changes, locked: isLocked(), applying: seq, apps: apps, outbox: outbox, then: then)
    }

    /// The scheduled requests added, replaced or gone between two pending lists, for the
    /// wearable's copy of the schedule.
    private func scheduleChanges(from before: PendingRequests, to apps: AppRequests) -> [MirrorCoordinator.CentreChange] {
        func key(_ request: PendingRequest) -> String { AppRequests.name(appID: request.appID, identifier: request.request.identifier) }
        let old = Dictionary(before.list().map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let new = apps.pending.list()
        var changes: [MirrorCoordinator.CentreChange] = []
        for request in new where !(old[key(request)]?.sameSchedule(as: request) ?? false) {
            let category = apps.category(request.request.content.categoryIdentifier, of: request.appID)
            if let item = request.scheduleItem(category: category) { changes.append(.scheduled(item)) }
        }
        let remaining = Set(new.map(key))
        for (name, request) in old.sorted(by: { $0.key < $1.key }) where !remaining.contains(name) {
            changes.append(.unscheduled(appName: request.appID, identifier: request.request.identifier))
        }
        return changes
    }
}

extension NotificationServer: PhoneLinkOwner {
    /// A response from the wearable: the centre acts as for relayctl, the app gets its
    /// signal, and the entry's cursor commits with the resulting changes.
    func apply(seq: UInt64, event: Relay_V1_WearableEvent) throws {
        guard let mirror else { return }
        // The entry counts as applied (and may be acknowledged) only once it is on disk, and
        // the app hears of it only then. The signals are stored with it and deleted once
        // emitted: a crash in between emits them at the next start (`emitStoredSignals`). The
        // lock is held meanwhile (responses are rare), so signals keep their order.
        try state.withLock { state in
            commitDeliveries(&state)
            guard try !mirror.isApplied(seq: seq) else { return }
            if case .firedLocally(let fired) = event.kind {
                try adopt(fired, seq: seq, mirror: mirror, &state)
                return
            }
            guard case .response(let response) = event.kind else {
                // Alert reports are for the record only. One comes for every notification the
                // wearable alerts for; a sync of its own for each would double the phone's.
                if case .alerted(let alerted) = event.kind, !alerted.alerted {
                    log("relay-phone: the wearable did not alert for \(alerted.notificationKey): \(alerted.reason)")
                }
                try mirror.recordReportApplied(seq: seq)
                return
            }
            let before = Snapshot(state.centre)
            var signals: [NotificationSignal] = []
            var announced = true
            var atMonitoredServer: (@Sendable () -> Void)?
            let dismissed = response.action == ResponseAction.dismissIdentifier
            if let id = centreID(answeredBy: response, mirror: mirror, state.centre) {
                if let close = closeAtMonitoredServer.current, state.centre.delivered.isFreedesktop(id) {
                    // Monitor mode: another server owns the notification and speaks to its app.
                    // A dismissal closes it there; the specification has no way to invoke an
                    // action at another server, so the rest stops here.
                    announced = false
                    if dismissed {
                        signals = state.centre.close(id, reason: .dismissedByUser)
                        atMonitoredServer = { close(id) }
                        log("relay-phone: from the wearable: dismiss on \(id); closing it at the notification server")
                    } else {
                        log("relay-phone: the wearable's \(response.action) on \(id) was not applied: in monitor mode another server owns it, and the specification gives no method to invoke an action there")
                    }
                } else {
                    do {
                        signals = try Self.act(on: id, response, &state.centre)
                        log("relay-phone: from the wearable: \(response.action) on \(id)\(response.hasUserText ? " with a reply" : "")")
                    } catch {
                        log("relay-phone: the wearable's \(response.action) on \(id) was not applied: \(error)")
                    }
                }
            } else {
                log("relay-phone: the wearable answered notification key \(response.notificationKey), which is gone")
            }
            retireTimers(of: signals, &state)
            let outbox = announced && !signals.isEmpty ? OutboxBatch(signals: signals.map(\.stored), bus: busID.withLock { $0 }) : nil
            let ticket = mirrorChanges(
                since: before, &state, signals: signals, by: .wearable(dismissed: dismissed), applying: seq, outbox: outbox)
            try ticket?.waitBlocking()
            if announced {
                send(signals)
                if let through = outbox?.storedThrough {
                    mirror.link.committer.submit { db in try SignalOutboxTable.remove(db, through: through) }
                }
            }
            atMonitoredServer?()
        }
    }

    /// The wearable fired an occurrence by itself while apart: recorded, and taken over by the
    /// centre if the phone has not fired it yet (`NotificationCentre.adoptOccurrence`).
    private func adopt(_ fired: Relay_V1_FiredLocally, seq: UInt64, mirror: MirrorCoordinator, _ state: inout State) throws {
        let before = Snapshot(state.centre)
        var adoption = NotificationCentre.Adoption.alreadyFired
        if let name = mirror.scheduleName(ofKey: fired.scheduleKey) {
            adoption = state.centre.adoptOccurrence(
                appID: name.appName, identifier: name.identifier, fireDate: WireTime.date(fired.fireDate), now: Date())
            log("relay-phone: the wearable fired \(name.appName)/\(name.identifier) at \(fired.fireDate) while apart: \(adoption)")
        }
        let change = MirrorCoordinator.CentreChange.firedOnWearable(
            scheduleKey: fired.scheduleKey, fireDate: fired.fireDate, alerted: fired.alerted, withdraw: adoption == .withdrawn)
        try mirrorChanges(since: before, &state, signals: [], by: .phone, applying: seq, also: [change])?.waitBlocking()
    }

    /// The centre's notification a response from the wearable is for: by its wire key, or for
    /// the wearable's own copy of an occurrence, the app's notification of that request.
    private func centreID(answeredBy response: Relay_V1_Response, mirror: MirrorCoordinator, _ centre: NotificationCentre) -> UInt32? {
        guard response.hasOccurrence, WireKey.scheduleKey(ofLocal: response.notificationKey) != nil else {
            return mirror.centreID(ofKey: response.notificationKey)
        }
        guard let name = mirror.scheduleName(ofKey: response.occurrence.scheduleKey) else { return nil }
        return centre.delivered(appID: name.appName).first { $0.origin.rich?.identifier == name.identifier }?.id
    }

    func startNewEpoch(newPartner: Bool) throws {
        try startNewEpoch(newPartner: newPartner, skippingKeys: false)
    }

    /// After a power cut that may have lost commits the wearable already had (`RunRecord`): a
    /// new epoch, whose snapshot replaces whatever the wearable holds, and keys that go on far
    /// past any it may hold. Runs before the link and the bus start.
    func recoverFromLostWrites() throws {
        try startNewEpoch(newPartner: false, skippingKeys: true)
    }

    private func startNewEpoch(newPartner: Bool, skippingKeys: Bool) throws {
        guard let mirror else { return }
        let ticket = state.withLock { state in
            commitDeliveries(&state)
            let items = state.centre.list.map { MirrorItem($0, deliveredAt: state.deliveredDates[$0.id] ?? Date()) }
            let apps = state.centre.apps
            let schedules = apps.pending.list().compactMap {
                $0.scheduleItem(category: apps.category($0.request.content.categoryIdentifier, of: $0.appID))
            }
            return mirror.startNewEpoch(items: items, schedules: schedules, newPartner: newPartner, skippingKeys: skippingKeys)
        }
        try ticket.waitBlocking()
    }

    private static func act(
        on id: UInt32, _ response: Relay_V1_Response, _ centre: inout NotificationCentre
    ) throws(CentreError) -> [NotificationSignal] {
        if response.action == ResponseAction.dismissIdentifier { return try centre.dismiss(id) }
        if response.hasUserText {
            return try centre.reply(id, text: response.userText, action: response.action == FreedesktopMapping.inlineReplyKey ? nil : response.action)
        }
        return try centre.invoke(id, action: centre.delivered[id]?.actionKey(fromWire: response.action) ?? response.action)
    }
}
