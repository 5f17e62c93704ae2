import PhoneAgent
import RelayCLI
import RelayDBus
import RelayFreedesktop
import RelayFreedesktopDBus
import Foundation
import RelayStore
import RelaySystem
import Synchronization

/// `org.freedesktop.Notifications` (spec 1.2) on the bus: the D-Bus side of the phone's centre.
///
/// Method handlers (D-Bus tasks), expiry timers (tasks) and the control socket (its own thread)
/// all reach the centre through one lock, and signals are queued while it is held, so they leave
/// in the order the centre decided them.
final class NotificationServer: Sendable {
    static let busName = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    struct State {
        var centre: NotificationCentre
        /// One timer per expiring notification, cancelled when it closes or is replaced.
        var timers: [UInt32: Task<Void, Never>] = [:]
        /// When each notification was first delivered (wall clock), for the wearable.
        var deliveredDates: [UInt32: Date] = [:]
        /// `Notify` calls in the centre whose changes are not yet handed to the mirror, with
        /// their replies; see ``NotificationServer/commitDeliveries(_:)``.
        var deferred: [(id: UInt32, reply: DBusPendingReply)] = []
    }

    private let connection: DBusConnection
    let state: Mutex<State>
    /// A round of dispatching is under way on the bus thread (`committingDeliveriesByRound`):
    /// the `Notify` calls its handler delivers wait for the round's end. Only that thread sets
    /// it, and only calls delivered from the handler itself consult it. Read without the lock,
    /// so that a round that handles no `Notify` never waits for it.
    private let roundUnderWay = Atomic<Bool>(false)
    /// The round under way left calls waiting in `State.deferred`.
    private let roundDeferred = Atomic<Bool>(false)
    let log: AgentLogSink
    /// Carries the centre's changes to the wearable; `nil` runs the server alone (tests, monitor-only tools).
    let mirror: MirrorCoordinator?
    /// The phone's lock state, read at each change for the mirror policy.
    let isLocked: @Sendable () -> Bool
    /// In monitor mode, how a dismissal from the wearable reaches the server that owns the
    /// notifications (`CloseNotification` there); `nil` while relay-phone is the server.
    let closeAtMonitoredServer = LockedCallback<UInt32>()
    /// The id of the bus served (`org.freedesktop.DBus.GetId`), kept with stored signals
    /// (`SignalOutboxTable`); set at start-up, before the link runs.
    let busID = Mutex("")

    init(
        connection: DBusConnection, log: AgentLogSink, mirror: MirrorCoordinator? = nil,
        restored: [CentreRecord] = [], restoredApps: AppRequests = AppRequests(), restoredLastID: UInt32 = 0,
        isLocked: @escaping @Sendable () -> Bool = { false }
    ) {
        self.connection = connection
        self.log = log
        self.mirror = mirror
        self.isLocked = isLocked
        images = mirror.map { ImageIntake(ingest: AttachmentIngest(store: $0.link.attachments)) }
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

    /// Takes attached images into the phone's store for the wearable; `nil` without a mirror.
    var ingest: AttachmentIngest? { mirror.map { AttachmentIngest(store: $0.link.attachments) } }
    /// The same for `Notify` calls, off the bus thread.
    let images: ImageIntake?

    /// The delivered notifications, oldest first.
    var delivered: [DeliveredNotification] { state.withLock { $0.centre.list } }

    /// Applies a user's action from the control socket (later: from the wearable) and emits its signals.
    /// Generic over the error so that operations that cannot fail (close, expire) need no `try`.
    func act<Failure: Error>(
        _ body: (inout NotificationCentre) throws(Failure) -> [NotificationSignal]
    ) throws(Failure) {
        try withCentre { (centre) throws(Failure) in (try body(&centre), ()) }
    }

    /// Runs `body` on the centre under the one lock, emits the signals it returns and returns its result:
    /// the way in for both interfaces (and Relay's own API, RichNotificationService.swift).
    ///
    /// The signals leave once the change is on disk — in the order the centre decided them, because
    /// the committer runs what follows each commit in queue order — so an app never hears of a
    /// close or an action that a crash then undoes. Without a disk (the commit failed) they leave
    /// anyway: the centre has changed.
    func withCentre<Result, Failure: Error>(
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
            log.error("relay-phone: could not store a change: \(error)")
            send(signals)
        }
        return result
    }

    /// Cancels every expiry timer, before the agent exits.
    func stop() {
        state.withLock { state in
            state.timers.values.forEach { $0.cancel() }
            state.timers.removeAll()
        }
    }

    // MARK: The interface

    var interface: DBusInterface {
        DBusInterface(
            Self.busName,
            methods: [
                DBusMethod(
                    "Notify",
                    inputs: [
                        .init("app_name", "s"), .init("replaces_id", "u"), .init("app_icon", "s"), .init("summary", "s"),
                        .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire_timeout", "i"),
                    ],
                    outputs: [.init("id", "u")],
                    reading: { [self] call, arguments, reply in try notify(call, &arguments, reply) }
                ),
                DBusMethod("CloseNotification", inputs: [.init("id", "u")]) { [self] call, reply in
                    let id = try call.arguments.decode(0, as: UInt32.self)
                    // Behind the sender's Notify calls still taking in an image, as it sent them.
                    inOrder(after: call.sender, reply) { [self] in
                        act { centre in centre.close(id, reason: .closedByCall) }
                        reply.succeed([])
                    }
                },
                DBusMethod("GetCapabilities", outputs: [.init("capabilities", "as")]) { _ in
                    [.array(FreedesktopMapping.capabilities)]
                },
                DBusMethod(
                    "GetServerInformation",
                    outputs: [.init("name", "s"), .init("vendor", "s"), .init("version", "s"), .init("spec_version", "s")]
                ) { _ in
                    let info = FreedesktopMapping.serverInformation
                    return [.string(info.0), .string(info.1), .string(info.2), .string(info.3)]
                },
            ],
            signals: [
                DBusSignalDeclaration("NotificationClosed", arguments: [.init("id", "u"), .init("reason", "u")]),
                DBusSignalDeclaration("ActionInvoked", arguments: [.init("id", "u"), .init("action_key", "s")]),
                DBusSignalDeclaration("ActivationToken", arguments: [.init("id", "u"), .init("activation_token", "s")]),
                DBusSignalDeclaration("NotificationReplied", arguments: [.init("id", "u"), .init("text", "s")]),
            ])
    }

    /// Answers only once the notification is on disk: the committer's thread gives the reply
    /// right after the commit (no task waits for it), and nothing holds the lock meanwhile, so
    /// the commits of calls that arrive together are shared. Runs on the D-Bus loop thread.
    private func notify(_ message: DBusMethodCall, _ arguments: inout DBusArgumentReader, _ reply: DBusPendingReply)
        throws(DBusError)
    {
        var call = try NotifyCall.decode(reading: &arguments)
        let sender = message.sender
        if let images {
            // Images are read and reduced before the lock, and off this thread.
            let now = images.handle(call, from: sender ?? "") { [self] call in
                deliver(call, from: sender, reply, withinDispatch: false)
            } refuse: {
                reply.fail(Self.stopping)
            }
            guard let now else { return }
            call = now
        }
        deliver(call, from: sender, reply, withinDispatch: true)
    }

    /// Runs `work` (a call of `sender`'s) now, or behind that sender's calls still taking in an image.
    private func inOrder(after sender: String?, _ reply: DBusPendingReply, _ work: @escaping @Sendable () -> Void) {
        guard let images else { return work() }
        images.inOrder(after: sender ?? "", work) { reply.fail(Self.stopping) }
    }

    /// The answer to a call still waiting its turn when the agent began to stop: nothing was done.
    static let stopping = DBusError(.failed, "relay-phone is stopping; the call was not carried out, try again when it is back")

    /// Puts a `Notify` call, its images taken in, into the centre; the reply follows the commit.
    /// A call delivered by the handler itself (`withinDispatch`) during a round of dispatching
    /// waits for the round's end, to be stored with the others of the round
    /// (`committingDeliveriesByRound`); one delivered later (its image taken in on the image
    /// queue) is handed on at once, with any the round has waiting, so that it never waits for
    /// a round that may itself wait for images.
    private func deliver(_ call: PostedNotification, from sender: String?, _ reply: DBusPendingReply, withinDispatch: Bool) {
        for note in call.notes { log("relay-phone: Notify from \(sender ?? "?") (\(call.appName)): \(note)") }
        let deferring = withinDispatch && roundUnderWay.load(ordering: .relaxed)
        state.withLock { state in
            state.deferred.append((notify(call, from: sender, &state), reply))
            if !deferring { commitDeliveries(&state) }
        }
        if deferring { roundDeferred.store(true, ordering: .relaxed) }
    }

    /// `Notify` in the centre, and its expiry timer; the change (and what it evicted) is for the
    /// caller to hand to the mirror.
    private func notify(_ call: PostedNotification, from sender: String?, _ state: inout State) -> UInt32 {
        let outcome = state.centre.notify(call, sender: sender, now: .now)
        state.timers.removeValue(forKey: outcome.id)?.cancel()
        if let deadline = outcome.expiresAt { state.timers[outcome.id] = expiryTimer(until: deadline) }
        return outcome.id
    }

    /// Runs `round` (a round of the bus's dispatching) with the `Notify` calls it handles stored
    /// in one job of the committer and answered once that is committed: per call, the job, its
    /// savepoint and its hand-over to the mirror would otherwise cost about as much as storing
    /// the notification itself.
    ///
    /// A round's calls share its fate: a commit that fails fails them all (they are answered
    /// anyway, and relay-phone stops on a storage failure, GroupCommitter's failure handler).
    func committingDeliveriesByRound(_ round: () -> Void) {
        roundUnderWay.store(true, ordering: .relaxed)
        round()
        roundUnderWay.store(false, ordering: .relaxed)
        guard roundDeferred.exchange(false, ordering: .relaxed) else { return }
        state.withLock { state in commitDeliveries(&state) }
    }

    /// Hands the deferred `Notify` calls' changes, and the closes they made to stay within the
    /// limits, to the mirror, and answers the calls once that is committed. Every other
    /// operation on the centre calls this first, so the mirror sees the changes in the centre's
    /// order and each operation starts from an empty journal.
    func commitDeliveries(_ state: inout State) {
        guard !state.deferred.isEmpty else { return }
        let waiting = state.deferred
        state.deferred.removeAll()
        // Closed to keep within the limits: announced once stored, and after the replies, as a
        // notification posted and pushed out within one round must be answered before it closes.
        let evicted = state.centre.takeEvictions()
        retireTimers(of: evicted, &state)
        // `Notify` never changes the apps' registrations, so the centre as it is serves as "before".
        let ticket = mirrorChanges(since: Snapshot(state.centre), &state, signals: evicted, by: .phone)
        let answer: @Sendable ((any Error)?) -> Void = { [self] failure in
            // The centre has them either way: the apps get their ids, and the closes leave.
            if let failure { log.error("relay-phone: could not store notification(s) \(waiting.map(\.id)): \(failure)") }
            for (id, reply) in waiting { reply.succeed([.uint32(id)]) }
            send(evicted)
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

    // MARK: Signals

    /// Emits signals with the lock held; a closed notification's timer goes with it.
    /// Cancels the expiry timers of the notifications the signals close.
    func retireTimers(of signals: [NotificationSignal], _ state: inout State) {
        for case .closed(let id, _) in signals { state.timers.removeValue(forKey: id)?.cancel() }
    }

    /// Emitting the signals, to run once their change is stored; `nil` for none.
    func announcement(of signals: [NotificationSignal]) -> (@Sendable () -> Void)? {
        guard !signals.isEmpty else { return nil }
        return { @Sendable [self] in send(signals) }
    }

    /// Emits the signals for the wearable's responses that the last run stored but may not have
    /// emitted (it stopped between the two), then forgets them. Call once the mode is settled
    /// (the bus name is ours, or another server's) and before the link runs. Signals for another
    /// bus (the session restarted: its unique names are other apps now), the freedesktop ones
    /// in monitor mode (another server speaks for those ids now) and unreadable ones are dropped.
    func emitStoredSignals(monitoring: Bool) throws {
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
            send(signals)
            return mirror.link.committer.submit { db in try SignalOutboxTable.remove(db, through: last) }
        }
        try ticket.waitBlocking()
        let dropped = rows.count - signals.count
        log(
            "relay-phone: \(signals.count) signal(s) for the wearable's responses, stored by the last run but perhaps not emitted, were emitted now"
                + (dropped > 0 ? "; \(dropped) could not be (another bus, monitor mode, or unreadable) and were dropped" : ""))
    }

    /// Emits the signals on the bus.
    func send(_ signals: [NotificationSignal]) {
        for signal in signals {
            let (name, arguments): (String, [DBusValue]) =
                switch signal {
                case .actionInvoked(let id, let key): ("ActionInvoked", [.uint32(id), .string(key)])
                case .replied(let id, let text): ("NotificationReplied", [.uint32(id), .string(text)])
                case .closed(let id, let reason): ("NotificationClosed", [.uint32(id), .uint32(reason.rawValue)])
                case .response: ("Response", [])
                }
            do {
                if case .response(let response) = signal {
                    // Relay's own API answers the app that posted, and nobody else.
                    try RichNotificationService.emit(response, on: connection)
                } else {
                    // Broadcast, as the reference servers do: clients match on the interface, not on
                    // being the destination. The sender is kept in the centre for unicast later.
                    try connection.emitSignal(path: Self.path, interface: Self.busName, name: name, arguments: arguments)
                }
            } catch {
                log.warning("relay-phone: could not emit \(name): \(error)")
            }
        }
    }
}
