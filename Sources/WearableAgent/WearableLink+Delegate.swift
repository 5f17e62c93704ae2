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
        try await link.apply([InboundEntry(seq: seq, body: body)], connection: connection)
    }

    func apply(_ entries: [InboundEntry]) async throws {
        try await link.apply(entries, connection: connection)
    }
    func acknowledged(through seq: UInt64) async throws { try await link.acknowledged(through: seq) }
    func peerLogReset(epoch: UInt64) async throws {
        try await link.peerLogReset(epoch: epoch)
        // The hello's log head counted in the old log; nothing of the new one waited.
        link.state.withLock { _ = $0.caughtUpThrough.removeValue(forKey: connection) }
    }
    func received(_ body: Relay_V1_Envelope.OneOf_Body) async { await link.received(body) }
    func measured(roundTrip: Duration) async { link.state.withLock { $0.roundTrip = roundTrip } }

    func connected(peer: Relay_V1_Hello, link identity: LinkIdentity) async {
        link.becameCurrent(connection, peer: peer)
        await link.connected(peer: peer, link: identity)
    }
}

extension WearableLink {
    /// The stored logs for connection `id`; under the lock that appends take, so an entry
    /// appended later is handed to this connection (`LinkState.handOut`).
    func loadLogs(for id: Int) throws -> LinkSession.Logs {
        try state.withLock { state in
            let logs = try database.read { db in try LinkLogTables.load(db) }
            state.loaded.insert(id)
            return logs
        }
    }

    /// Applies consecutive changes of the phone's log: the replica's effects, the cursor and any
    /// reports for the phone commit in one transaction (one sync for a whole catch-up); the
    /// screen hears of them afterwards. Entries an overlapping connection applied are skipped.
    func apply(_ entries: [InboundEntry], connection: Int) async throws {
        let now = configuration.clock.now()
        let effects = try state.withLock { state -> [ReplicaEffect] in
            // Every applier holds this lock, so the cursor read here is the one the commit moves.
            let appliedThrough = try database.read { db in try LinkLogTables.state(db).appliedThrough }
            var replica = state.replica
            var effects: [ReplicaEffect] = []
            var seqs: [UInt64] = []
            for entry in entries where entry.seq > appliedThrough {
                guard case .change(let change) = entry.body else {
                    throw WearableLinkError.unexpected("the phone sent a log entry that is not a change")
                }
                effects += replica.apply(
                    change, catchUp: isCatchUp(change, seq: entry.seq, connection: connection, state: state, now: now))
                seqs.append(entry.seq)
            }
            guard !seqs.isEmpty, try commit(effects, to: replica, claiming: seqs, at: now, in: &state) else { return [] }
            return effects
        }
        for effect in effects { log(effect) }
        if effects.contains(where: \.changesSchedule) { firingWakeups.continuation.yield() }
        let references = effects.flatMap(\.attachments)
        if !references.isEmpty { requestMissingAttachments(references) }
        if effects.contains(where: \.mayReleaseAttachments) { sweepAttachments() }
    }

    /// Commits a replica's effects — and the cursor of the phone's log through `seqs` — in one
    /// transaction, appending its reports to the outbound log; then the replica replaces the
    /// held one and the screen hears of it. Returns `false` when an entry had been applied.
    func commit(
        _ effects: [ReplicaEffect], to replica: Replica, claiming seqs: [UInt64], at now: Date, in state: inout LinkState
    ) throws -> Bool {
        let reports = try database.write { db -> [(UInt64, Relay_V1_Envelope.OneOf_Body)]? in
            // Two connections may overlap for a moment (a reconnect before the old one
            // noticed); the stored cursor decides, so an entry is applied once.
            for seq in seqs { guard try LinkLogTables.claim(db, seq: seq) else { return nil } }
            try ReplicaPersistence.persist(effects, in: db)
            return try effects.compactMap { effect in
                guard case .report(let kind) = effect else { return nil }
                var event = Relay_V1_WearableEvent()
                event.at = WireTime.seconds(now)
                event.kind = kind
                let body = Relay_V1_Envelope.OneOf_Body.event(event)
                return (try LinkLogTables.append(db, body), body)
            }
        }
        guard let reports else { return false }
        state.replica = replica
        for (seq, body) in reports { state.handOut(seq: seq, body: body) }
        // Queued for the screen with the lock held: two overlapping connections apply
        // consecutive entries, and the screen must hear of them in the order they committed.
        let presented = ReplicaPresentation.events(for: effects, in: replica.contents)
        if !presented.isEmpty { present(presented) }
        return true
    }

    /// Whether a change waited on the phone while the devices were apart and is older than the
    /// offline alert window: entries up to the phone's log head at its hello waited.
    private func isCatchUp(_ change: Relay_V1_Change, seq: UInt64, connection: Int, state: LinkState, now: Date) -> Bool {
        guard case .upsert(let upsert) = change.kind, seq <= state.caughtUpThrough[connection] ?? 0 else { return false }
        return now.timeIntervalSince(WireTime.date(upsert.deliveredAt)) > configuration.offlineAlertWindow
    }

    func acknowledged(through seq: UInt64) async throws {
        try database.write { db in try LinkLogTables.acknowledge(db, through: seq) }
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
            present([.link(.connected)])
            requestMissingAttachments()
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
