public import Foundation
public import RelayFreedesktop
public import RelayWire

/// Who acted on the centre, which decides how a removal is told to the wearable.
public enum ActingSide: Sendable, Hashable {
    /// The phone: its apps, its timers, relayctl.
    case phone
    /// The wearable's user: a dismissal, or an action or reply.
    case wearable(dismissed: Bool)

    /// The reason the wearable is given for a notification that closed for `reason` (`nil`:
    /// gone without a close, e.g. removed through Relay's API).
    public func removeReason(_ reason: CloseReason?) -> Relay_V1_RemoveReason {
        switch (self, reason) {
        case (_, .expired?): .expired
        case (.phone, .dismissedByUser?): .dismissedOnPhone
        case (.wearable(let dismissed), .dismissedByUser?): dismissed ? .dismissedOnWearable : .acted
        case (_, .closedByCall?), (_, .undefined?), (_, nil): .withdrawn
        }
    }
}

/// What one operation on the centre changed, in the mirror's terms: the notifications posted,
/// replaced or removed (each removal with the reason the wearable is given), the scheduled
/// requests added, replaced or gone, and the apps' registrations when they changed.
///
/// Pure: the centre's journal, its state before the operation and the times are passed in, so
/// the decisions are tested without a database or a link (`CentreChangesTests`).
public struct CentreChanges: Sendable {
    /// The changes, in the order the mirror records them: notifications by id, then schedules.
    public var changes: [MirrorCoordinator.CentreChange]
    /// The apps' categories and scheduled requests, encoded, when the operation changed them.
    public var apps: Data?

    /// Takes the centre's journal of changed notifications and of those closed silently to stay
    /// within the limits, and turns it into changes. `appsBefore` is the apps' registrations
    /// before the operation; `signals` are the operation's, whose close reasons become the
    /// removals' reasons; `deliveredDates` keeps when each notification was first delivered
    /// (`now` for a new one) and forgets the removed.
    public static func take(
        from centre: inout NotificationCentre, appsBefore: AppRequests, signals: [NotificationSignal], by side: ActingSide,
        deliveredDates: inout [UInt32: Date], now: (wall: Date, monotonic: ContinuousClock.Instant), monitoring: Bool
    ) -> CentreChanges {
        let changed = centre.takeChanges()
        var reasons: [UInt32: CloseReason] = [:]
        for case .closed(let id, let reason) in signals { reasons[id] = reason }
        // Closed to keep within the limits, with no signal to say so (Relay's own API's).
        for id in centre.takeSilentEvictions() { reasons[id] = .expired }
        var changes: [MirrorCoordinator.CentreChange] = []
        for (id, existed) in changed.sorted(by: { $0.key < $1.key }) {
            if let notification = centre.delivered[id] {
                let date = deliveredDates[id] ?? now.wall
                deliveredDates[id] = date
                changes.append(
                    .posted(
                        MirrorItem(notification, deliveredAt: date, monitoring: monitoring), replaced: existed,
                        record: CentreRecord(notification, deliveredAt: date, now: now).encoded()))
            } else if existed {
                deliveredDates[id] = nil
                changes.append(.removed(centreID: id, reason: side.removeReason(reasons[id])))
            }
        }
        guard centre.apps != appsBefore else { return CentreChanges(changes: changes, apps: nil) }
        changes += scheduleChanges(from: appsBefore.pending, to: centre.apps)
        return CentreChanges(changes: changes, apps: AppRequestsRecord(centre.apps).encoded())
    }

    /// Empties the centre's journals without recording anything (the phone runs unpaired, with
    /// no mirror), so that they never grow.
    public static func discard(from centre: inout NotificationCentre) {
        _ = centre.takeChanges()
        _ = centre.takeSilentEvictions()
    }

    /// The scheduled requests added, replaced or gone between two pending lists, for the
    /// wearable's copy of the schedule: a request whose next date alone moved is no change.
    public static func scheduleChanges(from before: PendingRequests, to apps: AppRequests) -> [MirrorCoordinator.CentreChange] {
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
