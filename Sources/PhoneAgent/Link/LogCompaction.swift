/// When the phone's log, growing while the wearable is away, gives way to a snapshot.
///
/// Every change waits in the log until the wearable acknowledges it, so a wearable that stays
/// away while apps post and close notifications would have the log grow without end (a post
/// and its removal are two entries, though neither is left to show). The state the log leads
/// to is bounded (the centre's limits), so past some length a snapshot of that state, the
/// first entries of a new log epoch, says the same in fewer entries: the log is replaced by
/// one. Past `limit` entries it is; `limit` is at least twice the last snapshot, so replacing
/// always shrinks the log to at most half, and never becomes a loop of snapshots.
struct LogCompaction: Sendable {
    /// The smallest `limit`: twice the largest snapshot the centre's limits allow, by default.
    let minimum: Int
    /// More entries waiting than this, and the log is replaced.
    private(set) var limit: Int
    private var appendedSinceCheck = 0

    init(minimum: Int) {
        self.minimum = max(1, minimum)
        limit = self.minimum
    }

    /// How many entries appended while away make it worth counting the log again: counting
    /// reads the database, so it is not done for every change.
    var checkInterval: Int { max(1, minimum / 4) }

    /// Counts entries appended while no session runs; true when the log should be counted.
    mutating func appendedWhileAway(_ count: Int) -> Bool {
        appendedSinceCheck += count
        guard appendedSinceCheck >= checkInterval else { return false }
        appendedSinceCheck = 0
        return true
    }

    /// Whether `waiting` unacknowledged entries are too many.
    func shouldCompact(waiting: Int) -> Bool { waiting > limit }

    /// The log was replaced by a snapshot of `entries` entries.
    mutating func compacted(leaving entries: Int) {
        limit = max(minimum, 2 * entries)
        appendedSinceCheck = 0
    }
}
