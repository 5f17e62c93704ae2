/// Ids in the order they were last posted or updated, oldest first, with both a touch and a
/// removal in constant time (amortized): an entry that a later touch or a removal made stale
/// stays until it reaches the front or the queue is compacted, and is skipped. Which entry of
/// an id is the live one the owner says (`isLive`: the id and the entry's stamp), as it keeps
/// the stamps (one table for all its queues).
struct RecencyQueue: Sendable {
    private var entries: [(id: UInt32, stamp: UInt64)] = []
    private var head = 0
    /// How many ids are live.
    private(set) var count = 0

    /// `id`, touched at `stamp` (any older entry of it is stale now, or was removed).
    mutating func append(_ id: UInt32, stamp: UInt64) {
        entries.append((id, stamp))
        count += 1
    }

    /// One of the ids is no longer live here (removed, or touched again and appended anew).
    mutating func drop(isLive: (UInt32, UInt64) -> Bool) {
        count -= 1
        // Stale entries are at most as many as live ones (and a few): the memory stays bounded.
        if entries.count - head > 2 * count + 64 {
            entries = entries[head...].filter { isLive($0.id, $0.stamp) }
            head = 0
        }
    }

    /// The live id touched longest ago.
    mutating func oldest(isLive: (UInt32, UInt64) -> Bool) -> UInt32? {
        while head < entries.count {
            let entry = entries[head]
            if isLive(entry.id, entry.stamp) { return entry.id }
            head += 1
        }
        return nil
    }

    /// The live ids, oldest first.
    func ids(isLive: (UInt32, UInt64) -> Bool) -> [UInt32] {
        entries[head...].filter { isLive($0.id, $0.stamp) }.map(\.id)
    }
}
