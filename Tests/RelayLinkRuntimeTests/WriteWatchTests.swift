@testable import RelayLinkRuntime
import Testing

/// The heartbeat's watch on a waiting write, with the clock and the bytes still to send given.
@Suite struct WriteWatchTests {
    /// Runs `body` while a write (that waits for `release`) is under way.
    private static func duringAWrite(_ watch: WriteWatch, from start: ContinuousClock.Instant, _ body: () -> Void) async {
        let (release, letGo) = AsyncStream<Void>.makeStream()
        async let write: Void = watch.timing(from: start) {
            var iterator = release.makeAsyncIterator()
            _ = await iterator.next()
        }
        // `timing` marks the write before its body runs; wait until it has.
        while !watch.isWriting { await Task.yield() }
        body()
        letGo.finish()
        await write
    }

    @Test func aWriteThatDrainsSlowlyIsNotGivenUpOn() async {
        let watch = WriteWatch()
        let start = ContinuousClock.now
        await Self.duringAWrite(watch, from: start) {
            // Bytes go down a little each second; the write lasts far longer than the limit.
            for second in 1...10 {
                #expect(!watch.givesUp(after: .seconds(2), waiting: 100_000 - second * 1_000, now: start + .seconds(second)))
            }
        }
        #expect(watch.gaveUp == nil)
    }

    @Test func aWriteThatDoesNotMoveIsGivenUpOnAfterTheLimit() async {
        let watch = WriteWatch()
        let start = ContinuousClock.now
        await Self.duringAWrite(watch, from: start) {
            #expect(!watch.givesUp(after: .seconds(2), waiting: 50_000, now: start + .seconds(1)))
            #expect(!watch.givesUp(after: .seconds(2), waiting: 40_000, now: start + .seconds(2)))  // moved
            #expect(!watch.givesUp(after: .seconds(2), waiting: 40_000, now: start + .milliseconds(3_900)))
            #expect(watch.givesUp(after: .seconds(2), waiting: 40_000, now: start + .milliseconds(4_100)))
            // Once is enough.
            #expect(!watch.givesUp(after: .seconds(2), waiting: 40_000, now: start + .seconds(9)))
        }
        #expect(watch.gaveUp.map { $0 > .seconds(2) } == true)
    }

    @Test func withoutAMeasureNothingIsGivenUpOn() async {
        let watch = WriteWatch()
        let start = ContinuousClock.now
        await Self.duringAWrite(watch, from: start) {
            #expect(!watch.givesUp(after: .seconds(1), waiting: nil, now: start + .seconds(60)))
        }
        #expect(!watch.givesUp(after: .seconds(1), waiting: 0, now: start + .seconds(120)))
        #expect(watch.gaveUp == nil)
    }

    /// The alarm may first look at a write late (one that was expected to be taken at once):
    /// that look is where the write's count starts, not a verdict on bytes it did not see.
    @Test func aWritesFirstLookIsWhereItsCountStarts() async {
        let watch = WriteWatch()
        let start = ContinuousClock.now
        await Self.duringAWrite(watch, from: start) {
            #expect(!watch.givesUp(after: .seconds(2), waiting: 40_000, now: start + .seconds(15)), "no verdict at the first look")
            #expect(watch.givesUp(after: .seconds(2), waiting: 40_000, now: start + .seconds(16)), "nothing moved since, and past the limit")
        }
    }

    /// A write's count is its own: what the write before it left waiting is no baseline.
    @Test func theWriteBeforeLeavesNoCountBehind() async {
        let watch = WriteWatch()
        let first = ContinuousClock.now
        await Self.duringAWrite(watch, from: first) {
            #expect(!watch.givesUp(after: .seconds(2), waiting: 10, now: first + .seconds(1)))
        }
        let second = first + .seconds(5)
        await Self.duringAWrite(watch, from: second) {
            // Compared with the first write's 10 bytes this would look like no movement at all.
            #expect(!watch.givesUp(after: .seconds(2), waiting: 40_000, now: second + .seconds(3)))
            #expect(!watch.givesUp(after: .seconds(2), waiting: 30_000, now: second + .seconds(4)), "moved")
            #expect(watch.givesUp(after: .seconds(2), waiting: 30_000, now: second + .milliseconds(6_100)))
        }
    }
}
