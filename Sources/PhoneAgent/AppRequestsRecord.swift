public import Foundation
import RelayCore

/// What the apps of Relay's own API registered — their categories and their scheduled
/// requests — as the phone's database keeps it, so a restart of relay-phone loses neither.
/// JSON, like `CentreRecord`.
public struct AppRequestsRecord: Codable, Sendable, Hashable {
    struct Pending: Codable, Sendable, Hashable {
        var appID: String
        var request: NotificationRequest
        var sender: String?
        var scheduledAt: Date
        var timeZone: String
        var nextFireDate: Date
    }

    var categories: [String: [NotificationCategory]]
    var pending: [Pending]
    /// Absent in records written before occurrences were kept.
    var lastFired: [String: Date]?

    /// The record of what the apps registered.
    public init(_ apps: AppRequests) {
        categories = apps.categories.mapValues { $0.values.sorted { $0.identifier < $1.identifier } }
        pending = apps.pending.list().map {
            Pending(
                appID: $0.appID, request: $0.request, sender: $0.sender, scheduledAt: $0.schedule.scheduledAt,
                timeZone: $0.schedule.timeZone.identifier, nextFireDate: $0.nextFireDate)
        }
        lastFired = apps.lastFired.isEmpty ? nil : apps.lastFired
    }

    /// What the apps registered, again. A request whose zone or trigger no longer makes a
    /// schedule (a zone removed from the system) is left out and named in `dropped`.
    public func restored() -> (apps: AppRequests, dropped: [String]) {
        var apps = AppRequests()
        var dropped: [String] = []
        apps.lastFired = lastFired ?? [:]
        for (appID, list) in categories {
            apps.categories[appID] = Dictionary(list.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        }
        for entry in pending {
            guard let trigger = entry.request.trigger, let zone = TimeZone(identifier: entry.timeZone),
                let schedule = try? TriggerSchedule(trigger: trigger, scheduledAt: entry.scheduledAt, timeZone: zone)
            else {
                dropped.append("\(entry.appID)/\(entry.request.identifier)")
                continue
            }
            apps.pending.add(
                PendingRequest(
                    appID: entry.appID, request: entry.request, sender: entry.sender, schedule: schedule,
                    nextFireDate: entry.nextFireDate))
        }
        return (apps, dropped)
    }

    /// The key names (app and identifier) of the pending requests, which the wearable holds.
    var scheduleKeyNames: [String] {
        pending.map { AppRequests.name(appID: $0.appID, identifier: $0.request.identifier) }
    }

    /// The record as stored.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)) ?? Data()
    }

    /// A stored record.
    public static func decode(_ data: Data) throws -> AppRequestsRecord {
        try JSONDecoder().decode(AppRequestsRecord.self, from: data)
    }

    /// Its name in the phone's database (`PhoneSchema.value`).
    public static let storageName = "app-requests"
}
