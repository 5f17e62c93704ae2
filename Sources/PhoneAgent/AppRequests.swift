public import RelayCore

/// What the apps of Relay's own API have registered with the phone, besides delivered notifications:
/// their categories and their scheduled requests.
public struct AppRequests: Sendable, Equatable {
    /// Each app's categories, by app id and category identifier. `SetCategories` replaces an app's set.
    public internal(set) var categories: [String: [String: NotificationCategory]] = [:]
    /// The requests scheduled and not yet due.
    public internal(set) var pending = PendingRequests()

    /// Nothing registered.
    public init() {}

    /// The category a notification of `appID` names, if the app has registered it.
    public func category(_ identifier: String, of appID: String) -> NotificationCategory? {
        identifier.isEmpty ? nil : categories[appID]?[identifier]
    }
}
