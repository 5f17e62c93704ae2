public import Foundation
public import Logging
import RelayLink
import RelayLinkRuntime
public import RelayStore
public import RelayTransport
public import RelayWire
import RelayCore
import RelaySystem
import Synchronization

/// The phone's side of the link: keeps a session with the paired wearable up — connecting,
/// and after a failure connecting again with exponential backoff — and carries the change
/// log to it and the wearable's events back to the owner.
public final class PhoneLink: Sendable {
    /// Where the wearable is and how the link is timed.
    public struct Configuration: Sendable {
        /// The wearable's address (loopback: its link socket).
        public var endpoint: TransportEndpoint
        /// The name the wearable's status shows for this phone.
        public var deviceName: String
        /// Heartbeat interval.
        public var heartbeat: Duration
        /// Silence after which the link counts as dead.
        public var timeout: Duration
        /// The heartbeat while nothing waits for an acknowledgement (`LinkTimeouts.idleHeartbeat`);
        /// `nil`: `heartbeat`.
        public var idleHeartbeat: Duration?
        /// The first wait before reconnecting; it doubles after each failed attempt …
        public var reconnectMinimum: Duration
        /// … up to this (at most 5 s for two minutes after a session ends: `ReconnectSchedule`).
        public var reconnectMaximum: Duration
        /// How to open a connection when not by `endpoint` (Bluetooth through BlueZ); `nil`: the endpoint.
        public var connector: (any WearableConnector)?
        /// Unacknowledged entries beyond which, while the wearable is away, the log is replaced
        /// by a snapshot (`LogCompaction`); by default twice the largest snapshot the centre's
        /// limits allow.
        public var logCompactionMinimum: Int
        /// The phone's wall clock, which its hello and heartbeats tell the wearable (the
        /// reference the wearable's clock follows: Docs/PROTOCOL.md, "The phone's clock").
        public var wallClock: @Sendable () -> Date = { Date() }

        /// Creates a configuration.
        public init(
            endpoint: TransportEndpoint, deviceName: String, heartbeat: Duration = .seconds(5), timeout: Duration = .seconds(15),
            reconnectMinimum: Duration = .seconds(1), reconnectMaximum: Duration = .seconds(60),
            connector: (any WearableConnector)? = nil,
            logCompactionMinimum: Int = PhoneLink.defaultLogCompactionMinimum, idleHeartbeat: Duration? = nil
        ) {
            self.idleHeartbeat = idleHeartbeat
            self.connector = connector
            self.logCompactionMinimum = logCompactionMinimum
            self.endpoint = endpoint
            self.deviceName = deviceName
            self.heartbeat = heartbeat
            self.timeout = timeout
            self.reconnectMinimum = reconnectMinimum
            self.reconnectMaximum = reconnectMaximum
        }
    }

    /// Twice the largest snapshot the centre's limits allow (its notifications and pending requests).
    public static var defaultLogCompactionMinimum: Int {
        2 * (ModelLimits.deliveredOverall + ModelLimits.pendingRequestsOverall)
    }

    let configuration: Configuration
    /// The phone's database (link logs, keys, centre).
    public let database: RelayDatabase
    /// Every write to it goes through here, so that writes commit in one order and share syncs.
    public let committer: GroupCommitter
    let keys: KeyStore
    /// What apps attached to their notifications, by content hash: what the wearable asks for.
    public let attachments: AttachmentStore
    let localKey: StaticKeyPair
    let logger: Logger
    let owner = Mutex<(any PhoneLinkOwner)?>(nil)
    let state: Mutex<LinkState>
    /// Called after the wearable unpaired this phone and it forgot the wearable in turn.
    let partnerUnpaired = Mutex<(@Sendable () -> Void)?>(nil)
    /// Told when a session with the wearable starts (true) and when it ends (false).
    let connectionChanged = LockedCallback<Bool>()
    let compaction: Mutex<LogCompaction>
    /// Wakes the session loop; what for is in `wanted`, so that wake-ups can collapse into one.
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let wanted = Mutex(Wanted())

    /// Why the session loop was woken.
    private struct Wanted {
        /// Connect now (pairing ended, a manual reconnect, the backoff is over).
        var connect = false
        /// Count the log, which grew while the wearable is away (`LogCompaction`).
        var compaction = false
    }

    struct LinkState: Sendable {
        var partnerKey: Data?
        var commands: AsyncStream<LinkConnectionDriver.Command>.Continuation?
        /// Called once the running session has ended (``waitForSessionEnd(within:)``).
        var sessionEndWaiters: [@Sendable () -> Void] = []
        var peer: Relay_V1_Hello?
        var connectedSince: Date?
        var lastError: String?
        var attempts = 0
        var pairing: PairingConnection?
        var roundTrip: Duration?
    }

    /// Opens the phone's state in `directory`: keys, and the database with `migrations`.
    public init(directory: StateDirectory, configuration: Configuration, logger: Logger) throws {
        try directory.prepare()
        keys = KeyStore(directory: directory)
        attachments = try AttachmentStore(in: directory)
        localKey = try StaticKeyPair(privateKey: keys.identity { StaticKeyPair.generate().privateKey })
        database = try RelayDatabase(path: directory.file("phone.sqlite"), migrations: PhoneSchema.migrations)
        committer = GroupCommitter(database: database, name: "relay-phone db")
        state = Mutex(LinkState(partnerKey: try keys.partner()))
        self.configuration = configuration
        self.logger = logger
        (wakeups, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        compaction = Mutex(LogCompaction(minimum: configuration.logCompactionMinimum))
    }

    /// Wakes the session loop to connect at once.
    func wakeToConnect() {
        wanted.withLock { $0.connect = true }
        wake.yield()
    }

    /// Sets the owner; call once, before `run`.
    public func attach(_ owner: any PhoneLinkOwner) {
        self.owner.withLock { $0 = owner }
    }

    /// Lets the owner go once `run` has ended: the owner holds this link too, and the two would
    /// otherwise keep each other alive.
    public func detach() {
        owner.withLock { $0 = nil }
    }

    /// Whether a partner is paired (the phone logs changes only for a partner).
    public var isPaired: Bool { state.withLock { $0.partnerKey != nil } }

    /// This phone's public key, for status.
    public var publicKey: Data { localKey.publicKey }

    /// Hands entries the owner has just committed to the log to the running session; without
    /// one they wait in the database for the next.
    public func send(_ entries: [(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)]) {
        guard !entries.isEmpty else { return }
        let away = state.withLock { state in
            for entry in entries { state.commands?.yield(.append(seq: entry.seq, body: entry.body)) }
            return state.commands == nil
        }
        guard away, compaction.withLock({ $0.appendedWhileAway(entries.count) }) else { return }
        wanted.withLock { $0.compaction = true }
        wake.yield()
    }

    /// Keeps a session up until the task is cancelled.
    public func run() async {
        var schedule = ReconnectSchedule(minimum: configuration.reconnectMinimum, maximum: configuration.reconnectMaximum)
        var lastSessionEnded: ContinuousClock.Instant?
        var wakeups = self.wakeups.makeAsyncIterator()
        while !Task.isCancelled {
            let partner = state.withLock { $0.pairing == nil ? $0.partnerKey : nil }
            guard let partner else {
                // Unpaired or pairing: nothing to do until that changes.
                guard await wakeups.next() != nil else { return }
                continue
            }
            // Whatever asked for a connection is answered by this attempt.
            wanted.withLock { $0.connect = false }
            compactLogIfLong()
            let connected = await runSession(partner: partner)
            if connected {
                schedule.connected()
                lastSessionEnded = .now
            }
            if Task.isCancelled { return }
            await sleep(schedule.wait(sinceLastSession: lastSessionEnded.map { $0.duration(to: .now) }), orUntilWoken: &wakeups)
        }
    }

    /// One attempt: connect, run the session until it ends. Returns whether it got connected.
    private func runSession(partner: Data) async -> Bool {
        state.withLock { $0.attempts += 1 }
        let connection: FramedConnection
        do {
            connection = try await openConnection()
        } catch {
            let message = "cannot reach the wearable: \(error)"
            let changed = state.withLock { state in
                defer { state.lastError = message }
                return state.lastError != message
            }
            // One line per new reason, not one per attempt.
            if changed { logger.warning("\(message); retrying with backoff") }
            return false
        }
        let (commands, continuation) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        state.withLock { $0.commands = continuation }
        let driver = LinkConnectionDriver(
            role: .initiator(.session(partnerKey: partner)), localKey: localKey, hello: hello, delegate: self,
            logger: logger,
            timeouts: LinkTimeouts(heartbeat: configuration.heartbeat, timeout: configuration.timeout, idleHeartbeat: configuration.idleHeartbeat),
            timeSource: configuration.wallClock)
        let outcome = await driver.run(connection, commands: commands)
        let (wasConnected, waiters) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            defer {
                state.commands = nil
                state.peer = nil
                state.connectedSince = nil
                state.sessionEndWaiters = []
            }
            if case .failed(let failure) = outcome { state.lastError = failure.description }
            return (state.connectedSince != nil, state.sessionEndWaiters)
        }
        for waiter in waiters { waiter() }
        if wasConnected { connectionChanged.current?(false) }
        if case .failed(.peerUnpaired(let reason)) = outcome {
            forgetPartner(unpairedBecause: reason)
            return wasConnected
        }
        if case .failed(.peerNeedsSnapshot) = outcome {
            do {
                try owner.withLock { $0 }?.startNewEpoch(newPartner: false)
                logger.notice("the wearable lost its state; a new log epoch with a snapshot is queued")
            } catch {
                logger.error("could not start a new log epoch: \(error)")
            }
            return true
        }
        return wasConnected
    }

    private func sleep(_ delay: Duration, orUntilWoken wakeups: inout AsyncStream<Void>.AsyncIterator) async {
        // A wake-up to connect (pairing finished, a manual reconnect) cuts the wait short; one
        // to count the log does not.
        let woken = Mutex(false)
        let timer = Task { try? await Task.sleep(for: delay); if !woken.withLock({ $0 }) { wakeToConnect() } }
        defer {
            woken.withLock { $0 = true }
            timer.cancel()
        }
        while await wakeups.next() != nil {
            let reasons = wanted.withLock { wanted in
                defer { wanted.compaction = false }
                return wanted
            }
            if reasons.compaction { compactLogIfLong() }
            if reasons.connect { return }
        }
    }

    /// Replaces the log with a snapshot when the wearable, away, left it longer than the
    /// state it leads to warrants (`LogCompaction`). Runs in the session loop, between
    /// attempts: a session never sees its log change epoch under it.
    private func compactLogIfLong() {
        guard let owner = owner.withLock({ $0 }) else { return }
        do {
            let waiting = try database.read(LinkLogTables.unacknowledgedCount)
            guard compaction.withLock({ $0.shouldCompact(waiting: waiting) }) else { return }
            try owner.startNewEpoch(newPartner: false)
            let left = try database.read(LinkLogTables.unacknowledgedCount)
            compaction.withLock { $0.compacted(leaving: left) }
            logger.notice(
                "the wearable has been away for \(waiting) changes; they are replaced by a snapshot of what it should show (\(left) entries)")
        } catch {
            logger.error("could not replace the log of changes with a snapshot: \(error)")
        }
    }

    var hello: Relay_V1_Hello {
        var hello = Relay_V1_Hello()
        hello.role = .phone
        hello.agentVersion = RelayVersion.string
        hello.deviceName = configuration.deviceName
        return hello
    }

    /// Closes the running session, if any (the loop reconnects after its backoff).
    public func disconnect(reason: String) {
        state.withLock { _ = $0.commands?.yield(.close(reason)) }
    }
}
