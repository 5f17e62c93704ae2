import Foundation
import GRDB
import RelayStore
import RelayWire

/// What one change of the replica did: its effects, and the entries of the phone's log it
/// applied (whose cursor moves in the same transaction).
struct ReplicaUpdate {
    var effects: [ReplicaEffect]
    var claimed: [UInt64] = []
}

/// An entry of the phone's log was applied already when its change was to be committed: the
/// cursor read in the same transaction rules that out, so this is a defect, not a race.
struct EntryAppliedTwice: Error, CustomStringConvertible {
    let seq: UInt64
    var description: String { "entry \(seq) of the phone's log was already applied; the change was not stored" }
}

extension WearableLink {
    /// Changes the held replica and stores what the change did in one write transaction: the
    /// effects, the cursor of the phone's log through the claimed entries, and reports appended
    /// to the outbound log. Then the screen hears of it. The caller must call `syncUpdates()`
    /// once it has released the lock, and acknowledge or answer only after that returns: the
    /// sessions get the reports only then.
    ///
    /// `change` runs inside the transaction, so what it reads (the cursor) is what the commit
    /// moves. The replica is changed in place: copying it so that a failure could go back
    /// would cost the whole replica for every notification. If the change or its commit fails,
    /// the held replica is read back from storage instead, which still has it as it was.
    ///
    /// The screen hears of the change as soon as it is committed, while the log is synced:
    /// the commit survives a crash of the agent either way, and only a power cut in that
    /// moment could lose it — the phone then sends it again, and it may alert twice. Nothing
    /// that acknowledges or reports it leaves before the sync (Docs/ARCHITECTURE.md): reports
    /// wait in `UpdateDurability`, and a session loads the logs only once every update is synced.
    func update(
        _ state: inout LinkState, at now: Date, _ change: (inout Replica, Database) throws -> ReplicaUpdate
    ) throws -> [ReplicaEffect] {
        var replica = state.replica
        state.replica = Replica()  // `replica` is now the only reference: no copy on write.
        let effects: [ReplicaEffect]
        let reports: [(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)]
        do {
            (effects, reports) = try database.writeUnsynced { db in
                let update = try change(&replica, db)
                for seq in update.claimed { guard try LinkLogTables.claim(db, seq: seq) else { throw EntryAppliedTwice(seq: seq) } }
                try ReplicaPersistence.persist(update.effects, in: db)
                let reports = try update.effects.compactMap { effect -> (seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)? in
                    guard case .report(let kind) = effect else { return nil }
                    var event = Relay_V1_WearableEvent()
                    event.at = WireTime.seconds(now)
                    event.kind = kind
                    let body = Relay_V1_Envelope.OneOf_Body.event(event)
                    return (try LinkLogTables.append(db, body), body)
                }
                return (update.effects, reports)
            }
        } catch {
            do {
                state.replica = Replica(contents: try database.read(ReplicaPersistence.load))
            } catch let reloadError {
                // Storage cannot be read either: keep the changed replica rather than none, so
                // the screen and the status stay meaningful; the next snapshot reconciles it.
                state.replica = replica
                logger.error("could not read the replica back after a failed change: \(reloadError)")
            }
            throw error
        }
        state.replica = replica
        state.alerts.note(effects, in: replica.contents, at: now)
        // Queued for the screen with the lock held: two overlapping connections apply
        // consecutive entries, and the screen must hear of them in the order they committed.
        var presented = ReplicaPresentation.events(for: effects, in: replica.contents)
        if effects.contains(where: \.changesPreferences) {
            presented.append(.alertPolicy(replica.contents.alertPolicy(base: configuration.alertPolicy, sharesDoNotDisturb: configuration.sharesDoNotDisturb)))
        }
        if !presented.isEmpty { present(presented) }
        state.durability.commit(appending: reports)
        return effects
    }

    /// Makes every update committed so far durable (one `fdatasync` of the log), then hands the
    /// reports they appended to the sessions, in order. Called without the lock held.
    func syncUpdates() throws {
        let target = state.withLock { state in state.durability.isSynced ? nil : state.durability.committed }
        guard let target else { return }
        try database.syncLog()
        state.withLock { state in
            for (seq, body) in state.durability.didSync(through: target) { state.handOut(seq: seq, body: body) }
        }
    }
}
