import Foundation
import GRDB
import RelayLink
import RelayLinkRuntime
import RelayStore
import RelayWire
import WearableUI

/// One connection's view of the wearable's link: the delegate the connection's driver calls,
/// which knows which connection it speaks for.
struct WearableSessionDelegate: LinkDelegate {
    let link: WearableLink
    let connection: Int

    func loadLogs() async throws -> LinkSession.Logs { try link.loadLogs(for: connection) }
    func apply(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) async throws {
        try await apply([InboundEntry(seq: seq, body: body)])
    }

    /// Whether this connection is the partner's session: admitted by its hello, not pairing.
    /// A refused connection (another pairing under way, a partner changed meanwhile) is being
    /// closed, but what came with its hello in the same read is still handed here.
    private var isPartnerSession: Bool {
        link.state.withLock { $0.admitted.contains(connection) && !$0.pairingConnections.contains(connection) }
    }

    func apply(_ entries: [InboundEntry]) async throws {
        // Nothing shows, alerts or is stored from a phone whose code the user has not confirmed,
        // nor from a connection that was refused.
        guard isPartnerSession else {
            throw WearableLinkError.unexpected("the phone sent changes on a connection that is not the partner's session")
        }
        try await link.apply(entries, connection: connection)
    }
    func acknowledged(through seq: UInt64) async throws {
        // Only the partner may have the wearable forget events it has not received.
        guard isPartnerSession else { return }
        try await link.acknowledged(through: seq)
    }
    func peerLogReset(epoch: UInt64) async throws {
        // A phone whose code is unconfirmed (or a refused connection) does not move the
        // wearable's place in a log: its connection carries no changes, and the session after
        // the confirmation resets again.
        guard isPartnerSession else { return }
        // The hello's log head counts in the new log: its entries up to it waited as well
        // (a snapshot's do not alert anyway; what the phone appended after it is a catch-up).
        try await link.peerLogReset(epoch: epoch)
    }
    func peerTime(_ time: Date) async {
        // Only the partner's clock is followed, as with its hello.
        guard isPartnerSession else { return }
        link.followClock(phoneTime: time)
    }

    func received(_ body: Relay_V1_Envelope.OneOf_Body) async {
        let (pairing, partner) = link.state.withLock { state in
            let admitted = state.admitted.contains(connection)
            let pairing = state.pairingConnections.contains(connection)
            // The pairing's messages only from the connection it runs on (the current one).
            return (admitted && pairing && state.current == connection, admitted && !pairing)
        }
        switch body {
        case .pairing: if pairing { await link.received(body) }
        default: if partner { await link.received(body) }
        }
    }
    func measured(roundTrip: Duration) async { link.state.withLock { $0.roundTrip = roundTrip } }

    func connected(peer: Relay_V1_Hello, link identity: LinkIdentity) async {
        guard link.admitAsCurrent(connection, identity, peer: peer) else { return }
        await link.connected(peer: peer, link: identity)
    }
}

extension WearableLink {
    /// The stored logs for connection `id`; under the lock that appends take, so an entry
    /// appended later is handed to this connection (`LinkState.handOut`). Read only while every
    /// update is synced, so that the session sends no report and claims no entry that a power
    /// cut could still take back.
    func loadLogs(for id: Int) throws -> LinkSession.Logs {
        while true {
            try syncUpdates()
            let logs = try state.withLock { state -> LinkSession.Logs? in
                guard state.durability.isSynced else { return nil }
                let logs = try database.read { db in try LinkLogTables.load(db) }
                state.loaded.insert(id)
                return logs
            }
            if let logs { return logs }
        }
    }

    /// Applies consecutive changes of the phone's log: the replica's effects, the cursor and any
    /// reports for the phone commit in one transaction (one sync for a whole catch-up); the
    /// screen hears of them afterwards. Entries an overlapping connection applied are skipped.
    func apply(_ entries: [InboundEntry], connection: Int) async throws {
        let now = configuration.clock.now()
        let effects = try state.withLock { state -> [ReplicaEffect] in
            let caughtUpThrough = state.caughtUpThrough[connection] ?? 0
            var context = alertContext(now: now, memory: state.alerts)
            return try update(&state, at: now) { replica, db in
                // Two connections may overlap for a moment (a reconnect before the old one
                // noticed); the stored cursor, read in the transaction that moves it, decides.
                let appliedThrough = try LinkLogTables.state(db).appliedThrough
                var update = ReplicaUpdate(effects: [])
                for entry in entries where entry.seq > appliedThrough {
                    guard case .change(let change) = entry.body else {
                        throw WearableLinkError.unexpected("the phone sent a log entry that is not a change")
                    }
                    if let problem = WireLimits.problem(in: change) {
                        // Refused, not trapped on: its place in the log is taken, so the phone
                        // does not send it again, and nothing of it is applied.
                        logger.error("refused a change from the phone: \(problem)", metadata: ["seq": "\(entry.seq)"])
                        update.claimed.append(entry.seq)
                        continue
                    }
                    let catchUp = entry.seq <= caughtUpThrough && isCatchUp(change, now: now)
                    let effects = replica.apply(change, catchUp: catchUp, context: context)
                    // A burst in one read buzzes once: what follows an alert is within its gap.
                    context.memory.note(effects, in: replica.contents, at: now)
                    update.effects += effects
                    update.claimed.append(entry.seq)
                }
                return update
            }
        }
        // Durable before the driver acknowledges the entries.
        try syncUpdates()
        for effect in effects { log(effect) }
        if effects.contains(where: \.changesSchedule) { firingWakeups.continuation.yield() }
        let references = effects.flatMap(\.attachments)
        if !references.isEmpty { requestMissingAttachments(references) }
        if effects.contains(where: \.mayReleaseAttachments) { sweepAttachments() }
    }

    /// Whether a change that waited on the phone while the devices were apart (the caller
    /// checked that) is older than the offline alert window. With no window, none alerts,
    /// whatever the clocks say; and one delivered more than five minutes "after" the wearable's
    /// now (a wearable without a real-time clock, before NTP) has an age nobody can tell, so it
    /// does not buzz either.
    private func isCatchUp(_ change: Relay_V1_Change, now: Date) -> Bool {
        guard case .upsert(let upsert) = change.kind else { return false }
        let window = configuration.offlineAlertWindow
        guard window > 0 else { return true }
        let age = now.timeIntervalSince(WireTime.date(upsert.deliveredAt))
        return age > window || age < -300
    }

    func acknowledged(through seq: UInt64) async throws {
        // Not synced: a crash that loses it costs nothing, since the next hello acknowledges
        // again; one sync fewer for every response and report.
        try database.writeUnsynced { db in try LinkLogTables.acknowledge(db, through: seq) }
    }

    func peerLogReset(epoch: UInt64) async throws {
        try database.write { db in try LinkLogTables.peerLogReset(db, epoch: epoch) }
        logger.info("the phone started a new log; a snapshot follows", metadata: ["epoch": "\(epoch)"])
    }

    func received(_ body: Relay_V1_Envelope.OneOf_Body) async {
        switch body {
        case .pairing(let message): receivePairing(message)
        case .attachmentChunk(let chunk): receive(chunk)
        default: break
        }
    }

    func connected(peer: Relay_V1_Hello, link: LinkIdentity) async {
        logger.info("the phone connected", metadata: ["name": "\(peer.deviceName)", "mode": "\(link.mode)"])
        if link.mode == .pair {
            startPairing(link)
        } else {
            // Only the partner's clock is followed: a phone that is merely pairing has not been
            // accepted by anyone yet.
            if peer.sentAtMillis != 0 { followClock(phoneTime: Date(timeIntervalSince1970: TimeInterval(peer.sentAtMillis) / 1000)) }
            present([.link(.connected)])
            requestMissingAttachments()
        }
    }

    /// Corrects the wearable's clock to the phone's (Docs/PROTOCOL.md, "The phone's clock"),
    /// saying so when it changed something, or the first time in a row the phone's cannot be
    /// right (each heartbeat brings it again).
    func followClock(phoneTime: Date) {
        let adjustment = configuration.clock.follow(phoneTime: phoneTime)
        let previous = state.withLock { state in
            defer { state.clockAdjustment = adjustment }
            return state.clockAdjustment
        }
        switch adjustment {
        case .agrees, .notFollowed: logger.debug("\(adjustment)")
        case .offset, .stepped, .stepRefused: logger.info("\(adjustment)")
        case .phoneClockWrong:
            if case .phoneClockWrong? = previous { logger.debug("\(adjustment)") } else { logger.warning("\(adjustment)") }
        }
    }

    private func log(_ effect: ReplicaEffect) {
        switch effect {
        case .stored(let record, let alert):
            logger.info("shown", metadata: ["key": "\(record.key)", "revision": "\(record.revision)", "alert": "\(alert)"])
        case .removed(let key, let revision):
            logger.info("removed", metadata: ["key": "\(key)", "revision": "\(revision)"])
        case .report(.alerted(let alerted)) where !alerted.alerted:
            logger.info("not alerted", metadata: ["key": "\(alerted.notificationKey)", "reason": "\(alerted.reason)"])
        default:
            break
        }
    }
}

/// Why the wearable closed a link.
enum WearableLinkError: Error, CustomStringConvertible {
    case unexpected(String)

    var description: String {
        switch self {
        case .unexpected(let what): what
        }
    }
}
