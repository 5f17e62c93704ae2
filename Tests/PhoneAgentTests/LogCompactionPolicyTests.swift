@testable import PhoneAgent
import Testing

struct LogCompactionPolicyTests {
    @Test func theLogIsCountedEveryQuarterOfTheMinimum() {
        var policy = LogCompaction(minimum: 100)
        let counted = [24, 1, 24, 30].map { policy.appendedWhileAway($0) }
        #expect(counted == [false, true, false, true])
    }

    @Test func aLargeSnapshotRaisesTheLimitSoThatReplacingAlwaysHalvesTheLog() {
        var policy = LogCompaction(minimum: 100)
        #expect(!policy.shouldCompact(waiting: 100))
        #expect(policy.shouldCompact(waiting: 101))
        policy.compacted(leaving: 80)
        #expect(!policy.shouldCompact(waiting: 160))
        #expect(policy.shouldCompact(waiting: 161))
        policy.compacted(leaving: 10)
        #expect(policy.limit == 100)
    }
}
