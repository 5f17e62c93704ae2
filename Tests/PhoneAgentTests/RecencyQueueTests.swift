import Testing

@testable import PhoneAgent

/// The order the limits close notifications in: touched longest ago first.
@Suite struct RecencyQueueTests {
    @Test func touchesMoveAnIdLastAndRemovalsSkipIt() {
        var queue = RecencyQueue()
        var stamps: [UInt32: UInt64] = [:]
        var clock: UInt64 = 0
        func isLive(_ id: UInt32, _ stamp: UInt64) -> Bool { stamps[id] == stamp }
        func touch(_ id: UInt32) {
            clock += 1
            let touched = stamps[id] != nil
            stamps[id] = clock
            if touched { queue.drop(isLive: isLive) }
            queue.append(id, stamp: clock)
        }
        func remove(_ id: UInt32) {
            stamps[id] = nil
            queue.drop(isLive: isLive)
        }
        for id in 1...3 as ClosedRange<UInt32> { touch(id) }
        touch(1)
        #expect(queue.oldest(isLive: isLive) == 2 && queue.count == 3)
        remove(2)
        #expect(queue.oldest(isLive: isLive) == 3)
        #expect(queue.ids(isLive: isLive) == [3, 1])
        // Many touches of one id leave no more than a bounded number of stale entries behind.
        for _ in 0..<10_000 { touch(1) }
        #expect(queue.ids(isLive: isLive) == [3, 1] && queue.count == 2)
    }
}
