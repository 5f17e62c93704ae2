public import Foundation
public import RelayCore
public import Logging
import RelayLink
public import RelayLinkRuntime
public import RelayStore
public import RelayTransport
public import RelayWire
import Synchronization
public import WearableUI

/// The connections' tasks, so that stopping the listener stops them too.
private final class ConnectionTasks: Sendable {
    private let tasks = Mutex<(last: Int, running: [Int: Task<Void, Never>])>((0, [:]))

    /// Starts `body` on a task of its own, forgotten again when it ends.
    func start(_ body: @escaping @Sendable () async -> Void) {
        tasks.withLock { tasks in
            tasks.last += 1
            let key = tasks.last
            // The task's own removal waits for this lock, so it cannot run before the insertion.
            tasks.running[key] = Task {
                await body()
                self.tasks.withLock { _ = $0.running.removeValue(forKey: key) }
            }
        }
    }

    /// Cancels every task still running and waits until each has ended, so that what a
    /// connection stores on its way down is stored before its listener returns.
    func stopAll() async {
        let running = tasks.withLock { Array($0.running.values) }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }
}

/// The wearable's side of the link: serves the phone's connections, keeps the replica and
/// the outbox of events in the database, and tells the screen what changed.
///
/// The link runs on tasks, the screen on its own thread: everything the screen must know
/// leaves through `present` (which the runtime queues for its thread), and the user's
/// responses come in through `respond`, which persists them before they are sent.
public final class WearableLink: Sendable {
    /// What the wearable tells the phone about itself, and its link timing.
    public struct Configuration: Sendable {
        /// The name shown in `relayctl status` on the phone.
        public var deviceName: String
        /// The screen and text limits.
        public var capabilities: Relay_V1_Capabilities
        /// Heartbeat interval and dead-link timeout.
        public var heartbeat: Duration
        /// Silence after which the link counts as dead.
        public var timeout: Duration
        /// The heartbeat while nothing waits for an acknowledgement (`LinkTimeouts.idleHeartbeat`);
        /// `nil`: `heartbeat`.
        public var idleHeartbeat: Duration?
        /// Notifications that waited on the phone while the devices were apart still alert when
        /// they are at most this old on arrival; 0: none alerts.
        public var offlineAlertWindow: TimeInterval
        /// The clock scheduled requests fire by while apart, and the one the partner's Hello
        /// corrects (``WearableClock/follow(phoneTime:)``).
        public var clock: any WearableClock
        /// How long a pairing may wait for both users' answers before it is given up: an
        /// unpaired wearable takes one pairing at a time, which nobody may hold for ever.
        public var pairingTimeout: Duration
        /// The monotonic clock the link's deadlines and the pairing's timeout run on.
        public var linkClock: any LinkClock
        /// The gap between vibrations and the configuration's quiet hours (Docs/POLICY.md); the
        /// wishes shared with the phone are added to it.
        public var alertPolicy = AlertPolicy()
        /// Whether the manual do not disturb is shared with the phone (`do_not_disturb.shared`):
        /// either side's toggle turns both on or off, the newest change winning.
        public var sharesDoNotDisturb = true

        /// Creates a configuration.
        public init(
            deviceName: String, capabilities: Relay_V1_Capabilities, heartbeat: Duration = .seconds(5),
            timeout: Duration = .seconds(15), offlineAlertWindow: TimeInterval = 0, clock: any WearableClock = SystemClock(),
            pairingTimeout: Duration = .seconds(120), linkClock: any LinkClock = SystemLinkClock(), idleHeartbeat: Duration? = nil
        ) {
            self.idleHeartbeat = idleHeartbeat
            self.pairingTimeout = pairingTimeout
            self.linkClock = linkClock
            self.deviceName = deviceName
            self.capabilities = capabilities
            self.heartbeat = heartbeat
            self.timeout = timeout
            self.offlineAlertWindow = offlineAlertWindow
            self.clock = clock
        }
    }

    let configuration: Configuration
    let database: RelayDatabase
    let keys: KeyStore
    /// The attachments received, by content hash.
    let attachments: AttachmentStore
    let localKey: StaticKeyPair
    let logger: Logger
    let present: @Sendable ([UIEvent]) -> Void
    let state: Mutex<LinkState>
    /// Called after the phone unpaired this wearable and it forgot the phone in turn.
    let partnerUnpaired = Mutex<(@Sendable () -> Void)?>(nil)
    /// Wakes the local firing loop: the link went up or down, or the schedule changed.
    let firingWakeups = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// The mutable part, behind one lock.
    struct LinkState: Sendable {
        var replica: Replica
        var partnerKey: Data?
        /// Every running connection's command channel, by connection number.
        var connections: [Int: AsyncStream<LinkConnectionDriver.Command>.Continuation] = [:]
        /// The connection whose session is up; a newer authenticated one replaces it.
        var current: Int?
        var lastConnection = 0
        var peer: Relay_V1_Hello?
        /// What the phone's clock last did to this one (its Hello, then each heartbeat), for status.
        var clockAdjustment: ClockAdjustment?
        /// When the wearable last alerted, and each thread (the gap and a thread's burst count from them).
        var alerts = AlertMemory()
        var connectedSince: Date?
        var lastError: String?
        var pairing: PairingSession?
        /// Connections up in pairing mode (`Noise_XX`): until the user confirms the code they
        /// carry pairing messages only, and a new partner closes them all.
        var pairingConnections: Set<Int> = []
        /// Connections admitted by their hello (`admit`): only these may change anything. A
        /// refused one is closed, but the rest of the read it came in is still handled.
        var admitted: Set<Int> = []
        /// Connections being set up (handshake, then the phone's hello), with how to close each
        /// from outside: not yet admitted as the partner's session or the one pairing.
        var handshaking: [Int: @Sendable () -> Void] = [:]
        /// How many of those were closed to make room, for the log.
        var handshakesEvicted = 0
        /// Those closed to make room whose run has not ended: their hello, should it still come
        /// in before the close lands, is not admitted.
        var evicted: Set<Int> = []
        var roundTrip: Duration?
        /// Connections whose session has loaded the outbound log (`loadLogs(for:)`). The phone's
        /// hello, which makes a connection current, comes a round trip later: an entry appended
        /// in between is in neither the loaded copy nor the current session, so every loaded
        /// connection is handed each new entry (a driver skips one it has).
        var loaded: Set<Int> = []
        /// Per connection: the phone's log head at its hello. Entries up to it waited while the
        /// devices were apart (a catch-up).
        var caughtUpThrough: [Int: UInt64] = [:]
        /// Attachments being fetched in the current session.
        var downloads: [AttachmentDigest: AttachmentDownload] = [:]
        /// Attachments larger than this wearable takes: never asked for again while it runs.
        var refusedAttachments: Set<AttachmentDigest> = []
        /// The replica's updates committed but perhaps not yet synced, and their reports.
        var durability = UpdateDurability()

        /// Where to send: the current session, if there is one.
        var commands: AsyncStream<LinkConnectionDriver.Command>.Continuation? {
            current.flatMap { connections[$0] }
        }

        /// Hands an entry just persisted in the outbound log to every session that loaded the log.
        func handOut(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) {
            for id in loaded { connections[id]?.yield(.append(seq: seq, body: body)) }
        }
    }

    /// Opens the wearable's state: its database and keys in `directory`.
    public init(
        directory: StateDirectory, configuration: Configuration, logger: Logger,
        present: @escaping @Sendable ([UIEvent]) -> Void
    ) throws {
        try directory.prepare()
        keys = KeyStore(directory: directory)
        attachments = try AttachmentStore(in: directory)
        localKey = try StaticKeyPair(privateKey: keys.identity { StaticKeyPair.generate().privateKey })
        database = try RelayDatabase(path: directory.file("wearable.sqlite"), migrations: WearableSchema.migrations)
        let contents = try database.read(ReplicaPersistence.load)
        // Decisions older than a week go even when nothing new is decided (a wearable left off).
        let now = WireTime.seconds(configuration.clock.now())
        try database.write { db in try DecisionHistoryTable.prune(db, now: now) }
        state = Mutex(LinkState(replica: Replica(contents: contents), partnerKey: try keys.partner()))
        self.configuration = configuration
        self.logger = logger
        self.present = present
    }

    /// What the screen shows at start-up: the stored replica.
    public var initialEvents: [UIEvent] {
        storedAttachmentEvents + state.withLock {
            ReplicaPresentation.everything($0.replica.contents)
                + [.alertPolicy($0.replica.contents.alertPolicy(base: configuration.alertPolicy, sharesDoNotDisturb: configuration.sharesDoNotDisturb))]
        }
    }

    /// Serves connections on `endpoint` until the task is cancelled, and returns once each of
    /// them has ended; `ready` runs once it listens.
    /// Each connection runs on its own task, so a phone that reconnects is not kept waiting
    /// behind a connection that has not noticed yet that it is dead.
    public func serve(on endpoint: TransportEndpoint, ready: @Sendable (TransportEndpoint) async -> Void) async throws {
        let connections = ConnectionTasks()
        do {
            try await Transport.listen(on: endpoint, ready: ready) { connection in
                connections.start { await self.run(connection) }
            }
        } catch {
            await connections.stopAll()
            throw error
        }
        await connections.stopAll()
    }

    /// How many connections may be being set up at once. Each holds a socket and a task for up
    /// to the handshake's time limit, whoever opened it; the phone needs one (two while an old
    /// connection has not noticed it is dead). Beyond that the oldest is closed to make room:
    /// refusing the newest instead would let a few silent sockets, opened again and again, keep
    /// the partner out for good, while its own handshake takes one round trip.
    public static let maximumHandshaking = 8

    /// How many connections are being set up now (before the phone's hello admits them).
    public var connectionsInHandshake: Int { state.withLock { $0.handshaking.count } }

    /// Runs one connection from the phone until it ends.
    public func run(_ connection: FramedConnection) async {
        let (commands, continuation) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        let (acceptance, id, evicted, evictions) = state.withLock { state in
            var evicted: (@Sendable () -> Void)?
            if state.handshaking.count >= Self.maximumHandshaking, let oldest = state.handshaking.keys.min() {
                evicted = state.handshaking.removeValue(forKey: oldest)
                state.evicted.insert(oldest)
                state.handshakesEvicted += 1
            }
            state.lastConnection += 1
            state.connections[state.lastConnection] = continuation
            state.handshaking[state.lastConnection] = { connection.abort() }
            // Unpaired, the wearable is pairable: it has nothing to leak yet, and pairing
            // still needs the user to confirm the same code on both devices.
            return (
                LinkHandshake.Acceptance(pairable: state.partnerKey == nil, partnerKey: state.partnerKey), state.lastConnection,
                evicted, state.handshakesEvicted
            )
        }
        if let evicted {
            evicted()
            // One line for the first and then every hundredth: a flood must not flood the log too.
            if evictions % 100 == 1 {
                logger.warning(
                    "\(Self.maximumHandshaking) connections were still being set up; the oldest was closed to make room (\(evictions) so far)")
            }
        }
        let driver = LinkConnectionDriver(
            role: .responder(acceptance), localKey: localKey, hello: hello,
            delegate: WearableSessionDelegate(link: self, connection: id), logger: logger,
            timeouts: LinkTimeouts(heartbeat: configuration.heartbeat, timeout: configuration.timeout, idleHeartbeat: configuration.idleHeartbeat),
            clock: configuration.linkClock)
        let outcome = await driver.run(connection, commands: commands)
        let (wasCurrent, wasPartnerSession) = state.withLock { state -> (Bool, Bool) in
            let wasPartnerSession = state.admitted.contains(id) && !state.pairingConnections.contains(id) && state.partnerKey != nil
            state.connections.removeValue(forKey: id)
            state.handshaking.removeValue(forKey: id)
            state.evicted.remove(id)
            state.admitted.remove(id)
            state.loaded.remove(id)
            state.pairingConnections.remove(id)
            state.caughtUpThrough.removeValue(forKey: id)
            guard state.current == id else { return (false, wasPartnerSession) }
            state.current = nil
            state.peer = nil
            state.connectedSince = nil
            state.pairing = nil
            if case .failed(let failure) = outcome { state.lastError = failure.description }
            return (true, wasPartnerSession)
        }
        if wasCurrent {
            linkChanged()
            present([.link(.outOfRange), .pairingFinished])
        }
        if case .failed(.peerNeedsSnapshot) = outcome { startNewEventLog() }
        if case .failed(.peerUnpaired(let reason)) = outcome, wasPartnerSession { forgetPartner(unpairedBecause: reason) }
    }

    /// The phone lost its place in the wearable's log (its database was reset), and entries it
    /// lacks are gone as acknowledged: the log starts a new epoch with what is still
    /// unacknowledged, so the phone's next connection starts from 1 instead of failing again.
    private func startNewEventLog() {
        do {
            let epoch = try state.withLock { state in
                let epoch = try database.write { db in try LinkLogTables.startNewEpochKeepingUnacknowledged(db) }
                state.durability.logRewritten()
                return epoch
            }
            logger.notice("the phone lost its place in the wearable's log; a new log epoch begins", metadata: ["epoch": "\(epoch)"])
        } catch {
            logger.error("could not start a new log epoch: \(error)")
        }
    }

    /// A connection's session just came up (its peer's Hello was accepted): it becomes the
    /// current one if it may, in one step under the lock, so that two sessions beginning at once
    /// cannot both end up thinking they are current. It may in pairing mode only while the
    /// wearable has no partner, in session mode only with the partner's key (both were checked
    /// when the connection was accepted, but a pairing may have finished since, while a stranger
    /// held its connection open), and only if no newer connection holds the session already.
    /// Becoming current closes the older connections; newer ones, still being set up, are left
    /// alone: the phone opened them after this one, so this one is what they replace. One that
    /// may not become current is closed. Returns whether it became current.
    func admitAsCurrent(_ id: Int, _ identity: LinkIdentity, peer: Relay_V1_Hello) -> Bool {
        // The line to log for a refusal is written after the lock is let go.
        let outcome = state.withLock { state -> (current: Bool, refusal: String?) in
            // Set up: admitted or refused, it no longer counts among those being set up.
            state.handshaking.removeValue(forKey: id)
            // Evicted: already being closed, and already logged.
            guard !state.evicted.contains(id) else { return (false, nil) }
            func refuse(_ reason: String, log line: String) -> (current: Bool, refusal: String?) {
                state.connections[id]?.yield(.close(reason))
                return (false, line)
            }
            let admitted =
                switch identity.mode {
                case .pair: state.partnerKey == nil
                case .session: state.partnerKey == identity.remoteStaticKey
                }
            guard admitted else {
                return refuse(
                    "the wearable is paired with another phone", log: "refused a connection: the wearable's partner changed while it was being set up")
            }
            // One pairing at a time: another device may not take the screen (and the user's
            // answer) from a pairing under way; it can try again once that one has ended.
            if identity.mode == .pair, state.pairing != nil, !state.pairingConnections.isEmpty {
                return refuse(
                    "another pairing is in progress on the wearable; try again when it ends",
                    log: "refused a pairing connection: another pairing is in progress")
            }
            // Overtaken while it was set up: a connection accepted after it holds the session.
            if let current = state.current, current > id {
                return refuse(
                    "a newer connection from the phone replaced this one", log: "closed a connection that a newer one from the phone overtook")
            }
            if identity.mode == .pair { state.pairingConnections.insert(id) }
            state.admitted.insert(id)
            for (other, commands) in state.connections where other < id {
                commands.yield(.close("a newer connection from the phone replaced this one"))
            }
            state.current = id
            state.peer = peer
            state.connectedSince = Date()
            state.lastError = nil
            state.caughtUpThrough[id] = peer.logHead
            state.downloads.removeAll()
            return (true, nil)
        }
        if let line = outcome.refusal { logger.warning("\(line)") }
        if outcome.current { linkChanged() }
        return outcome.current
    }

    private var hello: Relay_V1_Hello {
        var hello = Relay_V1_Hello()
        hello.role = .wearable
        hello.agentVersion = RelayVersion.string
        hello.deviceName = configuration.deviceName
        hello.capabilities = configuration.capabilities
        hello.sentAtMillis = Int64((configuration.clock.now().timeIntervalSince1970 * 1000).rounded())
        return hello
    }

    // MARK: The user's responses

    /// Persists the user's response in the outbox, then sends it if the phone is connected;
    /// otherwise it waits in the outbox for the next connection.
    public func respond(_ response: NotificationResponse) throws {
        var answer = Relay_V1_Response(response)
        try state.withLock { state in
            // The event for the phone and the mark that keeps the notification off the screen
            // commit together: after a restart it is neither shown again nor answered twice.
            _ = try update(&state, at: response.date) { replica, _ in
                // The wearable's own copy of an occurrence: the phone finds its notification by the occurrence.
                if let occurrence = replica.contents.notifications[answer.notificationKey]?.occurrence,
                    WireKey.scheduleKey(ofLocal: answer.notificationKey) != nil
                {
                    answer.occurrence = occurrence
                }
                return ReplicaUpdate(effects: replica.answer(answer.notificationKey) + [.report(.response(answer))])
            }
        }
        try syncUpdates()
    }

    /// Takes notification `identifier` off this wearable only (Clear on the long look): marked
    /// as answered, so that it is not shown again, also after a restart, until the phone
    /// changes or removes it; the phone hears nothing.
    public func clear(_ identifier: String) throws {
        guard let key = WireKey.key(identifier) else { return }
        try state.withLock { state in
            _ = try update(&state, at: now) { replica, _ in ReplicaUpdate(effects: replica.answer(key)) }
        }
        try syncUpdates()
    }

    /// Calls `handler` each time the phone unpairs this wearable over the link (after the
    /// wearable has forgotten it): the Bluetooth side removes its bond and waits for a new phone.
    public func whenPartnerUnpaired(_ handler: @escaping @Sendable () -> Void) {
        partnerUnpaired.withLock { $0 = handler }
    }

    /// The phone said it forgot this wearable: the wearable forgets it too, as `relayctl unpair`
    /// would, so that neither keeps a pairing the other has dropped.
    private func forgetPartner(unpairedBecause reason: String) {
        do {
            try forget(tellingThePhone: false)
            logger.notice("unpaired by the phone (\(reason)); waiting for a phone to pair")
        } catch {
            logger.error("the phone unpaired this wearable, but it could not forget the phone: \(error)")
            return
        }
        partnerUnpaired.withLock { $0 }?()
    }

    /// Forgets the partner, the replica and the logs (`relayctl unpair`), and tells the phone,
    /// if the link is up, so that it forgets this wearable too.
    public func unpair() throws {
        try forget(tellingThePhone: true)
    }

    /// Forgets the replica and the logs in storage (a phone forgotten or replaced), and returns
    /// what stays for the next phone: the user's wishes, but for thread mutes (threads are
    /// named by the phone's keys, which a next phone gives to other threads). The caller puts
    /// them in the new replica.
    func forgetReplica(_ state: inout LinkState) throws -> ReplicaContents {
        var kept = ReplicaContents()
        kept.preferences = state.replica.contents.preferences.forgettingThreads()
        kept.ownDoNotDisturb = state.replica.contents.ownDoNotDisturb
        try database.write { db in
            try WearableSchema.forgetAll(db)
            try WearableSchema.savePreferences(db, row: 1, Relay_V1_Preferences(kept.preferences))
        }
        state.durability.logRewritten()
        return kept
    }

    private func forget(tellingThePhone: Bool) throws {
        let removed = try state.withLock { state -> [UInt64] in
            let kept = try forgetReplica(&state)
            try keys.forgetPartner()
            let removed = Array(state.replica.contents.notifications.keys)
            state.partnerKey = nil
            state.replica = Replica(contents: kept)
            state.commands?.yield(tellingThePhone ? .unpaired("the wearable was unpaired (relayctl unpair)") : .close("the wearable was unpaired"))
            return removed
        }
        sweepAttachments()
        present(removed.map { .remove(identifier: WireKey.identifier($0)) })
    }
}

