public import Foundation
public import RelayCore

/// Relay's own API (Docs/RICH-API.md): apps post, update, schedule and remove requests of the full
/// model, and get a ``RichResponse`` when the user acts. Every operation validates with the model's
/// rules (field paths in the messages) and changes nothing when it throws.
extension NotificationCentre {
    /// What `Post` did.
    public struct PostOutcome: Sendable, Hashable {
        /// The notification's id; the same as before when it was an update.
        public var id: UInt32
        /// Whether it updated a delivered notification of the same app and identifier.
        public var replaced: Bool
    }

    /// What fired in ``fireDue(now:)``.
    public struct FiredRequest: Sendable, Hashable {
        /// The delivered notification's id.
        public var id: UInt32
        /// The app.
        public var appID: String
        /// The request's identifier.
        public var identifier: String
        /// Whether it updated a delivered notification with the same identifier.
        public var replaced: Bool
        /// When it fires again (repeating requests); `nil` when it has left the pending list.
        public var nextFireDate: Date?
        /// The occurrence that fired: its date by the schedule.
        public var fireDate: Date
    }

    /// What ``adoptOccurrence(appID:identifier:fireDate:now:)`` decided.
    public enum Adoption: Sendable, Hashable {
        /// The phone fired this occurrence (or a later one) itself: nothing to add.
        case alreadyFired
        /// The phone had not fired it yet: it is delivered now, as fired on the wearable.
        case adopted(id: UInt32)
        /// The app removed the request before the occurrence: the wearable's copy is withdrawn.
        case withdrawn
    }

    /// `Post`: delivers a request at once. Posting an identifier the app already has delivered updates
    /// that notification in place (same id, new content and actions, the new sender); a pending request
    /// with the identifier is replaced by this one, so it does not fire later.
    public mutating func post(
        _ request: NotificationRequest, appID: String, sender: String?, now: Date
    ) throws(RichError) -> PostOutcome {
        try Self.check(appID: appID, request: request)
        if let trigger = request.trigger {
            throw .invalid(
                "request.trigger is a \(trigger.kind) trigger, but Post delivers at once; "
                    + "send requests with a trigger to Schedule, or leave the trigger out")
        }
        apps.pending.remove(appID: appID, identifier: request.identifier)
        return deliver(request, appID: appID, sender: sender, now: now)
    }

    /// `Schedule`: keeps a request with a time-interval or calendar trigger until it is due. Calendar
    /// components are matched in `timeZone` (the phone's zone); an app's pending request with the same
    /// identifier is replaced. Returns the pending request with its first fire date.
    public mutating func schedule(
        _ request: NotificationRequest, appID: String, sender: String?, now: Date, timeZone: TimeZone
    ) throws(RichError) -> PendingRequest {
        try Self.check(appID: appID, request: request)
        guard let trigger = request.trigger else {
            throw .invalid(
                "request.trigger is missing; Schedule needs a timeInterval or calendar trigger (Post delivers at once)")
        }
        let schedule: TriggerSchedule
        do {
            // Whole seconds, as the wire carries it: the wearable computes the same fire dates,
            // and an occurrence is known by its fire date on both devices.
            let start = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            schedule = try TriggerSchedule(trigger: trigger, scheduledAt: start, timeZone: timeZone)
        } catch {
            throw .invalid("request.trigger: \(error.description)")
        }
        guard let next = schedule.nextFireDate(after: now) else {
            throw .invalid(
                "request.trigger never fires: its calendar components match no time after "
                    + "\(now.formatted(Date.ISO8601FormatStyle(timeZone: timeZone))); check the year, month and day")
        }
        // Bounded, so that an app cannot make every later Schedule store and sort without end.
        let limit = ModelLimits.pendingRequestsPerApp
        let replacing = apps.pending.contains(appID: appID, identifier: request.identifier)
        guard replacing || apps.pending.count(appID: appID) < limit else {
            throw .invalid(
                "\(appID) has \(limit) pending requests, the most an app may have; remove some with RemovePending "
                    + "(relayctl remove --pending --app-id \(appID)), or schedule under one of their identifiers to replace it")
        }
        guard replacing || apps.pending.count < ModelLimits.pendingRequestsOverall else {
            throw .invalid(
                "the phone holds \(ModelLimits.pendingRequestsOverall) pending requests, the most it keeps for all apps; "
                    + "remove some with RemovePending (relayctl pending lists them)")
        }
        let pending = PendingRequest(appID: appID, request: request, sender: sender, schedule: schedule, nextFireDate: next)
        apps.pending.add(pending)
        return pending
    }

    /// Delivers every pending request due at `now`, soonest first. A due request becomes a delivered
    /// notification (an update in place if the app has one with its identifier delivered); a repeating
    /// one stays pending with its next date. The scheduler then sleeps until ``nextFireDate``.
    public mutating func fireDue(now: Date) -> [FiredRequest] {
        apps.pending.takeDue(now: now).map { due in
            let fireDate = due.nextFireDate
            let outcome = deliver(
                due.request, appID: due.appID, sender: due.sender, now: now, occurrence: ScheduledOccurrence(fireDate: fireDate))
            apps.fired(appID: due.appID, identifier: due.request.identifier, fireDate: fireDate)
            let next = apps.pending.list(appID: due.appID).first { $0.request.identifier == due.request.identifier }
            return FiredRequest(
                id: outcome.id, appID: due.appID, identifier: due.request.identifier, replaced: outcome.replaced,
                nextFireDate: next?.nextFireDate, fireDate: fireDate)
        }
    }

    /// The wearable fired the occurrence at `fireDate` by itself while apart (Docs/PHONE.md, "Out of
    /// range"). If the phone has fired it, or a later one, there is nothing to add: its own
    /// notification replaces the wearable's copy. If the request is still pending and the phone has
    /// not reached that date (its clock is behind, or it was off), the occurrence is delivered now,
    /// marked as fired on the wearable so that it does not alert twice. Otherwise the app removed the
    /// request meanwhile, and the wearable's copy is withdrawn.
    public mutating func adoptOccurrence(appID: String, identifier: String, fireDate: Date, now: Date) -> Adoption {
        if let last = apps.lastFired[AppRequests.name(appID: appID, identifier: identifier)], last >= fireDate {
            return .alreadyFired
        }
        guard let due = apps.pending.takeOccurrence(appID: appID, identifier: identifier, fireDate: fireDate, now: now)
        else {
            return apps.pending.contains(appID: appID, identifier: identifier) ? .alreadyFired : .withdrawn
        }
        let outcome = deliver(
            due.request, appID: appID, sender: due.sender, now: now,
            occurrence: ScheduledOccurrence(fireDate: fireDate, firedOnWearable: true))
        apps.fired(appID: appID, identifier: identifier, fireDate: fireDate)
        return .adopted(id: outcome.id)
    }

    /// When the next pending request fires; `nil` when nothing is pending.
    public var nextFireDate: Date? { apps.pending.nextFireDate }

    /// `SetCategories`: replaces the app's categories. Notifications already delivered keep the
    /// actions they were delivered with.
    public mutating func setCategories(_ categories: [NotificationCategory], appID: String) throws(RichError) {
        var problems = Self.appIDProblems(appID)
        for (index, category) in categories.enumerated() {
            problems += category.validationProblems(at: "categories[\(index)]")
        }
        var seen = Set<String>()
        for category in categories where !seen.insert(category.identifier).inserted {
            problems.append(ValidationError(field: "categories", problem: .duplicateIdentifier(category.identifier)))
        }
        if !problems.isEmpty { throw .invalid(ValidationFailure(problems: problems).description) }
        apps.categories[appID] = categories.isEmpty ? nil : Dictionary(uniqueKeysWithValues: categories.map { ($0.identifier, $0) })
    }

    /// `RemovePending`: the app's pending requests with these identifiers, all or none.
    public mutating func removePending(_ identifiers: [String], appID: String) throws(RichError) {
        let unknown = identifiers.filter { !apps.pending.contains(appID: appID, identifier: $0) }
        guard unknown.isEmpty else { throw .unknown(appID: appID, identifiers: unknown, pending: true) }
        for identifier in identifiers { apps.pending.remove(appID: appID, identifier: identifier) }
    }

    /// `RemoveDelivered`: the app's delivered notifications with these identifiers, all or none. The app
    /// removed them itself, so no response is sent.
    public mutating func removeDelivered(_ identifiers: [String], appID: String) throws(RichError) {
        let ids = identifiers.map { deliveredID(appID: appID, identifier: $0) }
        let unknown = zip(identifiers, ids).filter { $0.1 == nil }.map(\.0)
        guard unknown.isEmpty else { throw .unknown(appID: appID, identifiers: unknown, pending: false) }
        for case let id? in ids { delivered.removeValue(forKey: id) }
    }

    /// The app's delivered notifications, oldest first (by id).
    public func delivered(appID: String) -> [DeliveredNotification] {
        list.filter { $0.origin.rich?.appID == appID }
    }

    /// The app's pending requests, soonest first.
    public func pending(appID: String) -> [PendingRequest] {
        apps.pending.list(appID: appID)
    }

    // MARK: Responses (called by invoke, reply and dismiss)

    /// The user chose an action of a rich notification: the response goes to the app, and the
    /// notification goes away (rich notifications are never resident).
    mutating func respond(
        to notification: DeliveredNotification, _ source: RichSource, action key: String
    ) throws(CentreError) -> [NotificationSignal] {
        if source.textInputActions.contains(key) { throw .textRequired(id: notification.id, key: key) }
        return respond(notification, source, action: key, text: "")
    }

    /// The user replied to a rich notification with one of its text-input actions (the first by default).
    mutating func respond(
        to notification: DeliveredNotification, _ source: RichSource, replying text: String, action key: String?
    ) throws(CentreError) -> [NotificationSignal] {
        let actions = source.textInputActions
        guard let key = key ?? actions.first, actions.contains(key) else {
            throw .notATextInputAction(id: notification.id, key: key ?? "", textInputActions: actions)
        }
        let bytes = text.utf8.count
        guard bytes <= ModelLimits.userTextBytes else {
            throw .replyTooLong(id: notification.id, bytes: bytes, limit: ModelLimits.userTextBytes)
        }
        return respond(notification, source, action: key, text: text)
    }

    /// The user dismissed a rich notification; the app hears of it only if its category asks for it.
    mutating func dismiss(_ notification: DeliveredNotification, _ source: RichSource) -> [NotificationSignal] {
        delivered.removeValue(forKey: notification.id)
        guard source.reportsDismissal else { return [] }
        return [.response(response(notification, source, action: ResponseAction.dismissIdentifier, text: ""))]
    }

    // MARK: Helpers

    private mutating func respond(
        _ notification: DeliveredNotification, _ source: RichSource, action: String, text: String
    ) -> [NotificationSignal] {
        delivered.removeValue(forKey: notification.id)
        return [.response(response(notification, source, action: action, text: text))]
    }

    private func response(
        _ notification: DeliveredNotification, _ source: RichSource, action: String, text: String
    ) -> RichResponse {
        RichResponse(
            appID: source.appID, identifier: source.identifier, action: action, text: text,
            destination: notification.sender)
    }

    /// Delivers a valid request: an update in place when the app has its identifier delivered.
    private mutating func deliver(
        _ request: NotificationRequest, appID: String, sender: String?, now: Date, occurrence: ScheduledOccurrence? = nil
    ) -> PostOutcome {
        let existing = deliveredID(appID: appID, identifier: request.identifier)
        let id = existing ?? nextID()
        let notification = DeliveredNotification(
            id: id, request: request, appID: appID,
            category: apps.category(request.content.categoryIdentifier, of: appID), sender: sender, date: now,
            occurrence: occurrence)
        delivered[id] = notification
        trim(notification)
        return PostOutcome(id: id, replaced: existing != nil)
    }

    /// The id of the app's delivered notification with this identifier: a search of the app's
    /// own (at most `ModelLimits.deliveredPerApp`).
    private func deliveredID(appID: String, identifier: String) -> UInt32? {
        delivered.ids(in: .init(appName: appID, rich: true)).first { delivered[$0]?.origin.rich?.identifier == identifier }
    }

    private static func check(appID: String, request: NotificationRequest) throws(RichError) {
        let problems = appIDProblems(appID) + request.validationProblems(at: "request")
        if !problems.isEmpty { throw .invalid(ValidationFailure(problems: problems).description) }
    }

    /// An app id is an identifier as the model limits them: not empty, at most 256 bytes.
    private static func appIDProblems(_ appID: String) -> [ValidationError] {
        if appID.isEmpty { return [ValidationError(field: "app_id", problem: .empty)] }
        let bytes = appID.utf8.count
        guard bytes <= ModelLimits.identifierBytes else {
            return [ValidationError(field: "app_id", problem: .tooLong(bytes: bytes, limit: ModelLimits.identifierBytes))]
        }
        return []
    }
}
