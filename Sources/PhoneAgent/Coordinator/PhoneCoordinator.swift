public import Foundation
public import RelayCore
public import RelayFreedesktop
public import Logging
import RelayStore
public import RelaySystem
public import Synchronization

/// The phone's policy between the centre, the mirror and the apps, whatever carries the calls:
/// notifications posted (answered once stored, a round of them stored together), operations on
/// the centre (closes, expiries, the user's actions, Relay's own API), the wearable's responses
/// (`PhoneLinkOwner`), new log epochs, and signals stored for a crash. relay-phone's D-Bus server
/// decodes the calls, gives the answers and emits the signals (``Effects``); the link and the
/// agent-link tests drive the same object.
///
/// Every operation takes the centre's one lock, hands what changed to the mirror under it (so
/// the wearable's log keeps the centre's order) and waits for the commit after releasing it:
/// no lock is held across a commit or a sync. The apps hear of a change once it is stored, in
/// the order the centre decided it, because the committer runs what follows each commit in
/// queue order.
public final class PhoneCoordinator: Sendable {
    /// What the coordinator asks of whoever speaks to the apps.
    public struct Effects: Sendable {
        /// Emits signals to the apps; called once their change is stored, in order.
        public var emit: @Sendable ([NotificationSignal]) -> Void
        /// A line for the agent's log.
        public var log: @Sendable (_ level: Logger.Level, _ line: String) -> Void

        /// Effects made of the two callbacks.
        public init(
            emit: @escaping @Sendable ([NotificationSignal]) -> Void, log: @escaping @Sendable (Logger.Level, String) -> Void
        ) {
            self.emit = emit
            self.log = log
        }
    }

    /// What the lock guards.
    public struct State: Sendable {
        /// The notification centre.
        public var centre: NotificationCentre
        /// One timer per expiring notification, cancelled when it closes or is replaced.
        var timers: [UInt32: Task<Void, Never>] = [:]
        /// When each notification was first delivered (wall clock), for the wearable.
        var deliveredDates: [UInt32: Date] = [:]
        /// Posted notifications in the centre whose changes are not yet handed to the mirror,
        /// with their answers; see ``PhoneCoordinator/commitDeliveries(_:)``.
        var deferred: [(id: UInt32, answer: @Sendable (UInt32) -> Void)] = []
    }

    let state: Mutex<State>
    let effects: Effects
    /// Carries the centre's changes to the wearable; `nil` runs the centre alone (tests, tools).
    public let mirror: MirrorCoordinator?
    /// The phone's lock state, read at each change for the mirror policy.
    let isLocked: @Sendable () -> Bool
    /// What the mirror holds alerts back for now (do not disturb, the mutes), read at each change.
    let alertPolicy: @Sendable () -> AlertPolicy?
    /// The user's filter rules as they stand, read at each change.
    let filterRules: @Sendable () -> FilterRules
    /// Takes the newer items of the wearable's change of the shared wishes; returns whether any
    /// was taken (not for an echo or an older change).
    let mergePreferences: @Sendable (SharedPreferences) -> Bool
    /// In monitor mode, how a dismissal from the wearable reaches the server that owns the
    /// notifications (`CloseNotification` there); unset while relay-phone is the server.
    public let closeAtMonitoredServer = LockedCallback<UInt32>()
    /// Whether relay-phone monitors another server: set before the monitor takes its first
    /// notification, so that none of those is mirrored with actions the phone cannot carry out.
    public let isMonitoring = Atomic<Bool>(false)
    /// Which bus the apps are on (`org.freedesktop.DBus.GetId`), kept with stored signals
    /// (`SignalOutboxTable`); set at start-up, before the link runs.
    public let busID = Mutex("")

    /// A centre restored from `restored` (its expiries armed again through `effects`).
    public init(
        effects: Effects, mirror: MirrorCoordinator? = nil, restored: [CentreRecord] = [],
        restoredApps: AppRequests = AppRequests(), restoredLastID: UInt32 = 0,
        isLocked: @escaping @Sendable () -> Bool = { false }, alertPolicy: @escaping @Sendable () -> AlertPolicy? = { nil },
        mergePreferences: @escaping @Sendable (SharedPreferences) -> Bool = { _ in false },
        filterRules: @escaping @Sendable () -> FilterRules = { FilterRules() }
    ) {
        self.filterRules = filterRules
        self.effects = effects
        self.mirror = mirror
        self.isLocked = isLocked
        self.alertPolicy = alertPolicy
        self.mergePreferences = mergePreferences
        let now = (wall: Date(), monotonic: ContinuousClock.now)
        var state = State(
            centre: NotificationCentre(
                restoring: restored.map { $0.notification(now: now) }, apps: restoredApps, lastID: restoredLastID))
        for record in restored { state.deliveredDates[record.id] = record.deliveredAt }
        self.state = Mutex(state)
        // Restored expiries wait again; one whose time passed while the agent was down closes now.
        self.state.withLock { state in
            for notification in state.centre.list {
                if let deadline = notification.expiresAt { state.timers[notification.id] = expiryTimer(until: deadline) }
            }
        }
    }

    /// The delivered notifications, oldest first.
    public var delivered: [DeliveredNotification] { state.withLock { $0.centre.list } }

    /// When notification `id` was delivered, if it is delivered now.
    public func deliveredDate(of id: UInt32) -> Date? {
        state.withLock { $0.deliveredDates[id] }
    }

    /// Reads the centre under its lock.
    public func read<Result>(_ body: (NotificationCentre) throws -> Result) rethrows -> Result {
        try state.withLock { try body($0.centre) }
    }

    /// Applies an operation that returns the signals to emit (a close, an expiry, a user's action).
    /// Generic over the error so that operations that cannot fail need no `try`.
    public func act<Failure: Error>(
        _ body: (inout NotificationCentre) throws(Failure) -> [NotificationSignal]
    ) throws(Failure) {
        try withCentre { (centre) throws(Failure) in (try body(&centre), ()) }
    }

    /// Runs `body` on the centre under the one lock, emits the signals it returns and returns its
    /// result. The signals leave once the change is on disk, so an app never hears of a close or
    /// an action that a crash then undoes; without a disk (the commit failed) they leave anyway:
    /// the centre has changed.
    public func withCentre<Result, Failure: Error>(
        _ body: (inout NotificationCentre) throws(Failure) -> (signals: [NotificationSignal], result: Result)
    ) throws(Failure) -> Result {
        let (result, signals, ticket) = try state.withLock {
            (state) throws(Failure) -> (Result, [NotificationSignal], CommitTicket?) in
            commitDeliveries(&state)
            let before = Snapshot(state.centre)
            let (own, result) = try body(&state.centre)
            // With what a post closed to keep within the limits.
            let signals = own + state.centre.takeEvictions()
            retireTimers(of: signals, &state)
            let ticket = mirrorChanges(since: before, &state, signals: signals, by: .phone, then: announcement(of: signals))
            return (result, signals, ticket)
        }
        do {
            try ticket?.waitBlocking()
        } catch {
            effects.log(.error, "relay-phone: could not store a change: \(error)")
            effects.emit(signals)
        }
        return result
    }

    /// Puts a posted notification into the centre; `answer` gets its id once it is stored.
    /// With `deferring`, its changes wait in the centre for ``commitDeliveries()`` (the end of a
    /// round of calls, stored together); otherwise they are handed on at once, with any waiting.
    public func deliver(
        _ posted: PostedNotification, from sender: String?, deferring: Bool, answer: @escaping @Sendable (UInt32) -> Void
    ) {
        for note in posted.notes { effects.log(.info, "relay-phone: Notify from \(sender ?? "?") (\(posted.appName)): \(note)") }
        state.withLock { state in
            let outcome = state.centre.notify(posted, sender: sender, now: .now)
            state.timers.removeValue(forKey: outcome.id)?.cancel()
            if let deadline = outcome.expiresAt { state.timers[outcome.id] = expiryTimer(until: deadline) }
            state.deferred.append((outcome.id, answer))
            if !deferring { commitDeliveries(&state) }
        }
    }

    /// Hands the deferred deliveries to the mirror (see ``deliver(_:from:deferring:answer:)``).
    public func commitDeliveries() {
        state.withLock { state in commitDeliveries(&state) }
    }

    /// Hands the deferred deliveries' changes, and the closes they made to stay within the
    /// limits, to the mirror, and answers them once that is committed. Every other operation on
    /// the centre calls this first, so the mirror sees the changes in the centre's order and each
    /// operation starts from an empty journal.
    ///
    /// Deliveries stored together share their fate: a commit that fails fails them all (they are
    /// answered anyway, and relay-phone stops on a storage failure, GroupCommitter's handler).
    func commitDeliveries(_ state: inout State) {
        guard !state.deferred.isEmpty else { return }
        let waiting = state.deferred
        state.deferred.removeAll()
        // Closed to keep within the limits: announced once stored, and after the answers, as a
        // notification posted and pushed out within one round must be answered before it closes.
        let evicted = state.centre.takeEvictions()
        retireTimers(of: evicted, &state)
        // Posting never changes the apps' registrations, so the centre as it is serves as "before".
        let ticket = mirrorChanges(since: Snapshot(state.centre), &state, signals: evicted, by: .phone)
        let answer: @Sendable ((any Error)?) -> Void = { [effects] failure in
            // The centre has them either way: the apps get their ids, and the closes leave.
            if let failure { effects.log(.error, "relay-phone: could not store notification(s) \(waiting.map(\.id)): \(failure)") }
            for (id, answer) in waiting { answer(id) }
            effects.emit(evicted)
        }
        guard let ticket else { return answer(nil) }
        ticket.whenCommitted(answer)
    }

    /// Wakes at `deadline` and lets the centre close whatever is due then.
    private func expiryTimer(until deadline: ContinuousClock.Instant) -> Task<Void, Never> {
        Task { [self] in
            // Cancelled (closed or replaced meanwhile): the sleep throws and nothing happens.
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            act { centre in centre.expire(now: .now) }
        }
    }

    /// Cancels the expiry timers of the notifications the signals close.
    func retireTimers(of signals: [NotificationSignal], _ state: inout State) {
        for case .closed(let id, _) in signals { state.timers.removeValue(forKey: id)?.cancel() }
    }

    /// Cancels every expiry timer, before the agent exits.
    public func stop() {
        state.withLock { state in
            state.timers.values.forEach { $0.cancel() }
            state.timers.removeAll()
        }
    }

    /// Emitting the signals, to run once their change is stored; `nil` for none.
    func announcement(of signals: [NotificationSignal]) -> (@Sendable () -> Void)? {
        guard !signals.isEmpty else { return nil }
        return { @Sendable [effects] in effects.emit(signals) }
    }

    /// Emits the signals for the wearable's responses that the last run stored but may not have
    /// emitted (it stopped between the two), then forgets them. Call once the mode is settled
    /// (the bus name is ours, or another server's) and before the link runs. Signals for another
    /// bus (the session restarted: its unique names are other apps now), the freedesktop ones
    /// in monitor mode (another server speaks for those ids now) and unreadable ones are dropped.
    public func emitStoredSignals(monitoring: Bool) throws {
        guard let mirror else { return }
        let bus = busID.withLock { $0 }
        // The stored rows are read before the lock: nothing adds to them until the link runs.
        let rows = try mirror.link.database.read(SignalOutboxTable.load)
        guard let last = rows.last?.seq else { return }
        var signals: [NotificationSignal] = []
        for row in rows where row.bus == bus {
            guard let signal = NotificationSignal(stored: row.signal) else { continue }
            if case .response = signal {} else if monitoring { continue }
            signals.append(signal)
        }
        // Emitted under the centre's lock, so that they leave before any signal decided after
        // them, and before they are deleted: a crash in between emits them again, never not at all.
        let ticket = state.withLock { state in
            commitDeliveries(&state)
            effects.emit(signals)
            return mirror.link.committer.submit { db in try SignalOutboxTable.remove(db, through: last) }
        }
        try ticket.waitBlocking()
        let dropped = rows.count - signals.count
        effects.log(
            .info,
            "relay-phone: \(signals.count) signal(s) for the wearable's responses, stored by the last run but perhaps not emitted, were emitted now"
                + (dropped > 0 ? "; \(dropped) could not be (another bus, monitor mode, or unreadable) and were dropped" : ""))
    }
}
