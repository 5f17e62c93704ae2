import RelayCore
public import RelayFreedesktop

/// The phone's delivered notifications and the freedesktop rules for them (spec 1.2), as a value:
/// operations take the time where it matters and return the signals to emit, in order. The
/// D-Bus server (relay-phone) carries them out; nothing here does I/O or reads a clock.
///
/// Notifications posted through Relay's own API (NotificationCentre+Rich.swift) share the ids and
/// the user's actions; acting on one returns a ``NotificationSignal/response(_:)`` instead of the
/// freedesktop signals, and freedesktop calls (`replaces_id`, `CloseNotification`) do not touch it.
public struct NotificationCentre: Sendable {
    /// The notifications delivered and not yet closed, by id.
    public internal(set) var delivered = DeliveredNotifications()
    /// The apps of Relay's own API: their categories and their scheduled requests.
    public internal(set) var apps = AppRequests()
    /// The last id handed out; ids count up from 1 and are not reused, also across restarts
    /// once the last id is stored (after 4,294,967,295 notifications they wrap, skipping 0 and
    /// ids still delivered).
    private var lastID: UInt32 = 0
    /// Closes made to stay within the limits, not yet taken by the owner (`takeEvictions`).
    private var evictions: [NotificationSignal] = []
    /// Those closed so without a signal (Relay's own API's, and monitor mode's), not yet taken
    /// (`takeSilentEvictions`): the wearable still hears they expired.
    private var silentEvictions: [UInt32] = []

    /// An empty centre.
    public init() {}

    /// The ids of delivered notifications changed since the last call (each with whether it
    /// was delivered before), for the mirror.
    public mutating func takeChanges() -> [UInt32: Bool] {
        delivered.takeChanges()
    }

    /// A centre holding notifications (and the apps' categories and scheduled requests)
    /// restored from storage; new ids continue after theirs and after `lastID`, the highest
    /// handed out before.
    public init(restoring notifications: [DeliveredNotification], apps: AppRequests = AppRequests(), lastID: UInt32 = 0) {
        self.apps = apps
        delivered = DeliveredNotifications(restoring: notifications)
        self.lastID = max(lastID, notifications.map(\.id).max() ?? 0)
    }

    /// What `Notify` did.
    public struct NotifyOutcome: Sendable, Hashable {
        /// The id to return to the caller.
        public var id: UInt32
        /// Whether it replaced a delivered notification (same id, new content).
        public var replaced: Bool
        /// When it expires, for the server's timer; `nil` for never.
        public var expiresAt: ContinuousClock.Instant?
    }

    /// `Notify`: a new notification, or new content for the delivered one `call.replacesID`
    /// names. A `replaces_id` that is not delivered (any more) gets a new id, as the spec says.
    public mutating func notify(_ call: PostedNotification, sender: String?, now: ContinuousClock.Instant) -> NotifyOutcome {
        let replaced = call.replacesID != 0 && delivered.isFreedesktop(call.replacesID)
        let id = replaced ? call.replacesID : nextID()
        let notification = DeliveredNotification(id: id, posted: call, sender: sender, now: now)
        delivered[id] = notification
        trim(notification)
        return NotifyOutcome(id: id, replaced: replaced, expiresAt: notification.expiresAt)
    }

    /// The notifications closed to stay within the limits since the owner last took them: their
    /// signals, to emit with those of the operation that made room (every operation that posts).
    public mutating func takeEvictions() -> [NotificationSignal] {
        defer { evictions.removeAll() }
        return evictions
    }

    /// Makes room after `newest` was posted: closes, as expired, the notifications of its app
    /// (through its API) beyond `ModelLimits.deliveredPerApp`, then any beyond
    /// `ModelLimits.deliveredOverall`, each time the one posted or updated longest ago. A
    /// freedesktop one leaves a `NotificationClosed` in ``takeEvictions()`` (unless not
    /// `announcing`, for monitor mode, where the other server speaks), one of Relay's own API
    /// goes silently (the app removed nothing, and gets no response).
    mutating func trim(_ newest: DeliveredNotification, announcing: Bool = true) {
        let bucket = DeliveredNotifications.Bucket(newest)
        while delivered.count(in: bucket) > ModelLimits.deliveredPerApp, let oldest = delivered.oldest(in: bucket) {
            evict(oldest, announcing: announcing)
        }
        while delivered.count > ModelLimits.deliveredOverall, let oldest = delivered.oldestOverall() {
            evict(oldest, announcing: announcing)
        }
    }

    private mutating func evict(_ id: UInt32, announcing: Bool) {
        if announcing, delivered.isFreedesktop(id) {
            evictions.append(.closed(id: id, reason: .expired))
        } else {
            silentEvictions.append(id)
        }
        delivered.removeValue(forKey: id)
    }

    /// The notifications closed to stay within the limits without a signal since the owner last
    /// took them, to tell the wearable they expired rather than were withdrawn.
    public mutating func takeSilentEvictions() -> [UInt32] {
        defer { silentEvictions.removeAll() }
        return silentEvictions
    }

    /// Removes a notification for `reason`. `CloseNotification` of an id that is not delivered is
    /// not an error (the spec asks for an empty reply), so this returns no signal then; neither does
    /// it for a notification of Relay's own API, which only its app removes (`RemoveDelivered`).
    public mutating func close(_ id: UInt32, reason: CloseReason) -> [NotificationSignal] {
        guard delivered.isFreedesktop(id) else { return [] }
        delivered.removeValue(forKey: id)
        return [.closed(id: id, reason: reason)]
    }

    /// Closes, as expired, every notification whose time has come. The server's timers call this;
    /// a timer that fires late for a notification since replaced with a later expiry closes nothing.
    public mutating func expire(now: ContinuousClock.Instant) -> [NotificationSignal] {
        let due = delivered.values.filter { $0.expiresAt.map { $0 <= now } ?? false }.map(\.id).sorted()
        return due.flatMap { close($0, reason: .expired) }
    }

    /// The user chose an action (`default` is a click on the notification itself). A notification
    /// that is not `resident` closes afterwards, as dismissed by the user.
    public mutating func invoke(_ id: UInt32, action key: String) throws(CentreError) -> [NotificationSignal] {
        let notification = try lookUp(id)
        guard notification.actions.contains(where: { $0.key == key }) else {
            throw .unknownAction(id: id, key: key, available: notification.actions.map(\.key))
        }
        if let source = notification.origin.rich { return try respond(to: notification, source, action: key) }
        return [.actionInvoked(id: id, key: key)] + closeUnlessResident(notification)
    }

    /// The user sent a text reply: `NotificationReplied`, then closed as dismissed unless `resident`.
    /// `action` chooses among a rich notification's text-input actions (the first when `nil`);
    /// freedesktop's `NotificationReplied` names none, so it is ignored there.
    public mutating func reply(_ id: UInt32, text: String, action: String? = nil) throws(CentreError) -> [NotificationSignal] {
        let notification = try lookUp(id)
        guard notification.acceptsReply else { throw .repliesNotAccepted(id) }
        if let source = notification.origin.rich {
            return try respond(to: notification, source, replying: text, action: action)
        }
        return [.replied(id: id, text: text)] + closeUnlessResident(notification)
    }

    /// The user dismissed it.
    public mutating func dismiss(_ id: UInt32) throws(CentreError) -> [NotificationSignal] {
        let notification = try lookUp(id)
        if let source = notification.origin.rich { return dismiss(notification, source) }
        return close(id, reason: .dismissedByUser)
    }

    /// The delivered notifications in the order they were first delivered (by id).
    public var list: [DeliveredNotification] {
        delivered.values.sorted { $0.id < $1.id }
    }

    private func lookUp(_ id: UInt32) throws(CentreError) -> DeliveredNotification {
        guard let notification = delivered[id] else { throw .unknownNotification(id) }
        return notification
    }

    private mutating func closeUnlessResident(_ notification: DeliveredNotification) -> [NotificationSignal] {
        notification.resident ? [] : close(notification.id, reason: .dismissedByUser)
    }

    mutating func nextID() -> UInt32 {
        repeat {
            lastID = lastID == .max ? 1 : lastID + 1
        } while delivered.contains(lastID)
        return lastID
    }
}

extension NotificationCentre {
    /// A notification with an id another server gave it: relay-phone in monitor mode learns the id
    /// from that server's reply to `Notify` and keeps the notification under it. A delivered
    /// notification with that id is replaced (the server kept the id for a `replaces_id`). Ids the
    /// centre hands out itself are not affected; the monitor never calls ``notify(_:sender:now:)``.
    /// - Returns: `nil` when a notification of Relay's own API holds the id (that API's ids come from
    ///   the centre, the other server's do not, so they can meet); it is kept, and the call is not.
    public mutating func record(
        _ call: PostedNotification, id: UInt32, sender: String?, now: ContinuousClock.Instant
    ) -> NotifyOutcome? {
        if let holder = delivered[id], holder.origin != .freedesktop { return nil }
        let notification = DeliveredNotification(id: id, posted: call, sender: sender, now: now)
        let replaced = delivered.updateValue(notification, forKey: id) != nil
        // The other server keeps its own; this copy (and the wearable's) stays within the limits.
        trim(notification, announcing: false)
        return NotifyOutcome(id: id, replaced: replaced, expiresAt: notification.expiresAt)
    }
}
