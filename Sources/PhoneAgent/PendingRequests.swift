public import Foundation
public import RelayCore

/// A request an app scheduled that has not fired yet (or, repeating, will fire again).
public struct PendingRequest: Sendable, Hashable {
    /// The app that scheduled it.
    public var appID: String
    /// The request, with its trigger.
    public var request: NotificationRequest
    /// The unique bus name of the connection that scheduled it: where its responses will go.
    public var sender: String?
    /// Its fire dates, counted from when it was scheduled, in the zone it was scheduled in.
    public var schedule: TriggerSchedule
    /// When it fires next.
    public var nextFireDate: Date

    /// Creates a pending request.
    public init(appID: String, request: NotificationRequest, sender: String?, schedule: TriggerSchedule, nextFireDate: Date) {
        self.appID = appID
        self.request = request
        self.sender = sender
        self.schedule = schedule
        self.nextFireDate = nextFireDate
    }
}

extension PendingRequest {
    /// What the wearable needs to fire it by itself.
    public func scheduleItem(category: NotificationCategory?) -> ScheduleItem? {
        guard let trigger = request.trigger else { return nil }
        return ScheduleItem(
            appName: appID, identifier: request.identifier, content: request.content, category: category, trigger: trigger,
            scheduledAt: schedule.scheduledAt, timeZone: schedule.timeZone.identifier)
    }

    /// The same request, trigger and start: a new next date alone is not a change for the wearable.
    public func sameSchedule(as other: PendingRequest) -> Bool {
        request == other.request && schedule == other.schedule
    }
}

/// The scheduled requests of every app, keyed by app and request identifier, as a value.
///
/// Time is passed in: ``takeDue(now:)`` hands out what is due and moves repeating requests to their
/// next date, so the scheduler only needs to sleep until ``nextFireDate``.
public struct PendingRequests: Sendable, Equatable {
    private struct Key: Hashable {
        var appID: String
        var identifier: String
    }

    private var requests: [Key: PendingRequest] = [:]

    /// No requests.
    public init() {}

    /// How many requests are pending, for every app.
    public var count: Int { requests.count }

    /// The earliest date at which anything fires; `nil` when nothing is pending.
    public var nextFireDate: Date? {
        requests.values.map(\.nextFireDate).min()
    }

    /// An app's pending requests (every app's when `appID` is `nil`), soonest first.
    public func list(appID: String? = nil) -> [PendingRequest] {
        requests.values.filter { appID == nil || $0.appID == appID }.sorted(by: Self.firesFirst)
    }

    /// How many requests an app has pending.
    public func count(appID: String) -> Int {
        requests.keys.reduce(0) { $0 + ($1.appID == appID ? 1 : 0) }
    }

    /// Whether the app has a pending request with this identifier.
    public func contains(appID: String, identifier: String) -> Bool {
        requests[Key(appID: appID, identifier: identifier)] != nil
    }

    /// Adds a request, replacing the app's pending request with the same identifier.
    mutating func add(_ pending: PendingRequest) {
        requests[Key(appID: pending.appID, identifier: pending.request.identifier)] = pending
    }

    /// Removes the app's request with this identifier, returning it if there was one.
    @discardableResult
    mutating func remove(appID: String, identifier: String) -> PendingRequest? {
        requests.removeValue(forKey: Key(appID: appID, identifier: identifier))
    }

    /// The requests due at `now`, soonest first, each with `nextFireDate` set to the occurrence
    /// that fires: the latest due, so occurrences missed while the phone was asleep fire once, not
    /// once each. One-shot requests leave; repeating ones stay with their next date after `now`.
    mutating func takeDue(now: Date) -> [PendingRequest] {
        let due = requests.values.filter { $0.nextFireDate <= now }.sorted(by: Self.firesFirst)
        return due.map { request in
            var fired = request
            fired.nextFireDate = request.schedule.latestFireDate(from: request.nextFireDate, notAfter: now)
            advance(request, past: now)
            return fired
        }
    }

    /// Takes the occurrence at `fireDate` of a pending request that has not fired it yet (the
    /// wearable fired it by its own clock, ahead of the phone's): it leaves the list if it was a
    /// one-shot request, or moves on to its next date. `nil` when the app has no such request, or
    /// it fires later than `fireDate` already.
    mutating func takeOccurrence(appID: String, identifier: String, fireDate: Date, now: Date) -> PendingRequest? {
        guard let request = requests[Key(appID: appID, identifier: identifier)], fireDate >= request.nextFireDate else {
            return nil
        }
        var fired = request
        fired.nextFireDate = fireDate
        advance(request, past: max(fireDate, now))
        return fired
    }

    private mutating func advance(_ request: PendingRequest, past date: Date) {
        let key = Key(appID: request.appID, identifier: request.request.identifier)
        if request.request.trigger?.repeats == true, let next = request.schedule.nextFireDate(after: date) {
            requests[key]?.nextFireDate = next
        } else {
            requests.removeValue(forKey: key)
        }
    }

    /// Soonest first; ties in the order of app and identifier, so the order never depends on hashing.
    private static func firesFirst(_ a: PendingRequest, _ b: PendingRequest) -> Bool {
        (a.nextFireDate, a.appID, a.request.identifier) < (b.nextFireDate, b.appID, b.request.identifier)
    }
}
