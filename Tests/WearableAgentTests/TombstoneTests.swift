import Testing

@testable import WearableAgent

@Suite("Replica: tombstones")
struct TombstoneTests {
    @Test("tombstones are bounded: the oldest keys' go, in memory and in storage, and the newest still hold")
    func tombstonesAreBounded() throws {
        let stored = try StoredReplica()
        let removals = 3 * Replica.tombstoneLimit
        for key in 1...UInt64(removals) {
            try stored.apply(ReplicaTests.upsert(key, revision: 1))
            try stored.apply(ReplicaTests.remove(key, revision: 2))
        }
        let kept = stored.replica.contents.tombstones
        #expect(kept.count >= Replica.tombstoneLimit && kept.count <= Replica.tombstoneLimit * 5 / 4)
        #expect(kept.keys.min() ?? 0 > UInt64(removals - kept.count), "the newest keys' tombstones are the ones kept")
        // The newest removal still keeps a late upsert out.
        #expect(try stored.apply(ReplicaTests.upsert(UInt64(removals), revision: 2)).isEmpty)
        try stored.restart()
        #expect(stored.replica.contents.tombstones == kept)
    }
}
