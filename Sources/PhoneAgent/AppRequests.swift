public import Foundation
public import RelayCore

/// What the apps of Relay's own API have registered with the phone, besides delivered notifications:
/// their categories and their scheduled requests.
public struct AppRequests: Sendable, Equatable {
    /// Each app's categories, by app id and category identifier. `SetCategories` replaces an app's set.
    public internal(set) var categories: [String: [String: NotificationCategory]] = [:]
    /// The requests scheduled and not yet due.
    public internal(set) var pending = PendingRequests()
    /// The latest occurrence each scheduled request fired (by app and identifier, joined with
    /// U+001F), kept after the request leaves the pending list: the wearable's report of an
    /// occurrence it fired while apart is compared with it (``NotificationCentre/adoptOccurrence``).
    public internal(set) var lastFired: [String: Date] = [:]

    /// How long a request's last occurrence is remembered after it fired.
    static let lastFiredRetention: TimeInterval = 7 * 24 * 3600

    /// A scheduled request's name across apps: the app and the identifier, as ``lastFired`` and the
    /// wire keys of scheduled requests know it.
    public static func name(appID: String, identifier: String) -> String { appID + "\u{1F}" + identifier }

    /// Remembers that a request fired `fireDate`, and forgets occurrences older than the retention.
    mutating func fired(appID: String, identifier: String, fireDate: Date) {
        let name = Self.name(appID: appID, identifier: identifier)
        lastFired[name] = max(lastFired[name] ?? fireDate, fireDate)
        lastFired = lastFired.filter { fireDate.timeIntervalSince($0.value) < Self.lastFiredRetention }
    }

    /// Nothing registered.
    public init() {}

    /// The category a notification of `appID` names, if the app has registered it.
    public func category(_ identifier: String, of appID: String) -> NotificationCategory? {
        identifier.isEmpty ? nil : categories[appID]?[identifier]
    }
}
