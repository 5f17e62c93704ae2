import Foundation
import PhoneAgent
import enum RelayCore.ResponseAction
import RelayFreedesktop
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
    /// Hands what changed in the centre since `before` to the mirror, with the lock held so
    /// the log keeps the centre's order. With `seq`, the change is the effect of that entry of
    /// the wearable's log and commits with its cursor.
    func mirrorChanges(
        since before: [UInt32: PhoneAgent.DeliveredNotification], _ state: inout State, signals: [NotificationSignal], by side: ActingSide,
        applying seq: UInt64? = nil
    ) {
        guard let mirror else { return }
        let after = state.centre.delivered
        var reasons: [UInt32: CloseReason] = [:]
        for case .closed(let id, let reason) in signals { reasons[id] = reason }
        var changes: [MirrorCoordinator.CentreChange] = []
        for (id, notification) in after.sorted(by: { $0.key < $1.key }) where before[id] != notification {
            let date = state.deliveredDates[id] ?? Date()
            state.deliveredDates[id] = date
            changes.append(
                .posted(
                    MirrorItem(notification, deliveredAt: date), replaced: before[id] != nil,
                    record: CentreRecord(notification, deliveredAt: date).encoded()))
        }
        for id in before.keys.sorted() where after[id] == nil {
            state.deliveredDates[id] = nil
            changes.append(.removed(centreID: id, reason: side.removeReason(reasons[id])))
        }
        guard !changes.isEmpty || seq != nil else { return }
        do {
            try mirror.record(changes, locked: isLocked(), applying: seq)
        } catch {
            // The centre has changed already; the wearable catches up through the next snapshot.
            log("relay-phone: could not store a change for the wearable: \(error)")
        }
    }
}

extension NotificationServer: PhoneLinkOwner {
    /// A response from the wearable: the centre acts as for relayctl, the app gets its
    /// signal, and the entry's cursor commits with the resulting changes.
    func apply(seq: UInt64, event: Relay_V1_WearableEvent) throws {
        guard let mirror else { return }
        try state.withLock { state in
            guard try !mirror.isApplied(seq: seq) else { return }
            guard case .response(let response) = event.kind else {
                // Alert reports are for the record only.
                if case .alerted(let alerted) = event.kind, !alerted.alerted {
                    log("relay-phone: the wearable did not alert for \(alerted.notificationKey): \(alerted.reason)")
                }
                try mirror.record([], locked: isLocked(), applying: seq)
                return
            }
            let before = state.centre.delivered
            var signals: [NotificationSignal] = []
            let dismissed = response.action == ResponseAction.dismissIdentifier
            if let id = mirror.centreID(ofKey: response.notificationKey) {
                do {
                    signals = try Self.act(on: id, response, &state.centre)
                    log("relay-phone: from the wearable: \(response.action) on \(id)\(response.hasUserText ? " with a reply" : "")")
                } catch {
                    log("relay-phone: the wearable's \(response.action) on \(id) was not applied: \(error)")
                }
            } else {
                log("relay-phone: the wearable answered notification key \(response.notificationKey), which is gone")
            }
            mirrorChanges(since: before, &state, signals: signals, by: .wearable(dismissed: dismissed), applying: seq)
            emit(signals, &state)
        }
    }

    func startNewEpoch(newPartner: Bool) throws {
        guard let mirror else { return }
        try state.withLock { state in
            let items = state.centre.list.map { MirrorItem($0, deliveredAt: state.deliveredDates[$0.id] ?? Date()) }
            try mirror.startNewEpoch(items: items, newPartner: newPartner)
        }
    }

    private static func act(
        on id: UInt32, _ response: Relay_V1_Response, _ centre: inout NotificationCentre
    ) throws(CentreError) -> [NotificationSignal] {
        if response.action == ResponseAction.dismissIdentifier { return try centre.dismiss(id) }
        if response.hasUserText {
            return try centre.reply(id, text: response.userText, action: response.action == FreedesktopMapping.inlineReplyKey ? nil : response.action)
        }
        return try centre.invoke(id, action: response.action)
    }
}
