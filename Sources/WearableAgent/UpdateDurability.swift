import RelayWire

/// Which of the replica's committed updates are known to be durable, and the reports for the
/// phone they appended, which may leave only once they are.
///
/// An update commits under `WearableLink.state` and is synced after the lock is released, so
/// that no lock is held across `fdatasync`. Updates are numbered as they commit; a sync that
/// started after update n committed makes 1…n durable. Two threads may sync at once; each
/// report is still handed out once, in commit order.
struct UpdateDurability: Sendable {
    /// The number of the last update committed.
    private(set) var committed: UInt64 = 0
    /// The number of the last update known to be durable.
    private(set) var synced: UInt64 = 0
    private var reports: [(update: UInt64, seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)] = []

    /// Every committed update is durable.
    var isSynced: Bool { synced == committed }

    /// An update committed, with the entries of the outbound log it appended.
    mutating func commit(appending entries: [(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)]) {
        committed += 1
        reports += entries.map { (committed, $0.seq, $0.body) }
    }

    /// A sync that started once update `through` had committed has finished: returns the
    /// entries that may leave now, in order, each only once.
    mutating func didSync(through update: UInt64) -> [(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)] {
        guard update > synced else { return [] }
        synced = update
        let ready = reports.prefix { $0.update <= update }
        reports.removeFirst(ready.count)
        return ready.map { ($0.seq, $0.body) }
    }

    /// The outbound log was rewritten by a synced write (a new epoch, or forgotten): every
    /// committed update is durable, and the reports still waiting are either in the new log,
    /// which a session loads whole, or gone with the old one.
    mutating func logRewritten() {
        synced = committed
        reports.removeAll()
    }
}
