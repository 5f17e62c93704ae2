import Foundation
import RelayCore
import RelayWire
import WearableUI

/// What the screen must hear about the replica: its effects as UI events, the phone's keys
/// turned into the identifiers the UI uses (`WireKey`).
enum ReplicaPresentation {
    /// The events for a change's effects, given the replica after the change.
    static func events(for effects: [ReplicaEffect], in contents: ReplicaContents) -> [UIEvent] {
        var events: [UIEvent] = []
        var categoriesChanged = false
        for effect in effects {
            switch effect {
            case .stored(let record, let alert):
                // Answered already: a snapshot resent it before the phone heard of the answer.
                guard !record.answered else { continue }
                events.append(.upsert(notification(record, in: contents), alert: alert))
            case .removed(let key, _), .answered(let key):
                events.append(.remove(identifier: WireKey.identifier(key)))
            case .categoryChanged, .categoryRemoved:
                categoriesChanged = true
            case .settingsChanged(let settings):
                events += [.previewsHidden(settings.hidePreviews), .cannedReplies(settings.cannedReplies)]
            case .appNamed, .appRemoved, .preferencesChanged, .tombstonesCleared, .tombstonesDropped, .snapshotBegan, .snapshotMentioned, .snapshotEnded, .report, .scheduleChanged, .scheduleRemoved, .firingFloor, .handled, .decided,
                .firedHere, .reconciled, .attachmentsReleased:
                break
            }
        }
        // Categories first: a notification's buttons come from its category.
        if categoriesChanged { events.insert(.categories(categories(contents)), at: 0) }
        return events
    }

    /// The whole replica, as at start-up (nothing alerts), but for what the user answered.
    static func everything(_ contents: ReplicaContents) -> [UIEvent] {
        var events: [UIEvent] = [
            .categories(categories(contents)), .previewsHidden(contents.settings.hidePreviews), .cannedReplies(contents.settings.cannedReplies),
        ]
        let shown = contents.notifications.values.filter { !$0.answered }
        for record in shown.sorted(by: { ($0.deliveredAt, $0.key) < ($1.deliveredAt, $1.key) }) {
            events.append(.upsert(notification(record, in: contents), alert: false))
        }
        return events
    }

    static func notification(_ record: ReplicaRecord, in contents: ReplicaContents) -> WearableNotification {
        WearableNotification(
            request: NotificationRequest(identifier: WireKey.identifier(record.key), content: NotificationContent(record.content)),
            appName: contents.appName(record.appKey),
            date: WireTime.date(record.deliveredAt), opensOnPhone: record.defaultAction)
    }

    static func categories(_ contents: ReplicaContents) -> [String: NotificationCategory] {
        Dictionary(
            contents.categories.values.map { (WireKey.identifier($0.category.key), NotificationCategory($0.category)) },
            uniquingKeysWith: { _, last in last })
    }
}
