@testable import RelayLinkRuntime
import Testing

/// The reader's credits: a bound on unhandled batches, lifted while the loop waits in a write,
/// and what was taken in meanwhile paid back before the reader goes on. Whether a credit is free
/// is asked without waiting, so no verdict hangs on how fast a loaded machine runs a task.
@Suite(.timeLimit(.minutes(1))) struct ReadCreditsTests {
    @Test func theLimitHoldsAndAHandledBatchLetsOneMoreIn() {
        let credits = ReadCredits(2)
        #expect(credits.tryTake())
        #expect(credits.tryTake())
        #expect(!credits.tryTake())
        credits.give()
        #expect(credits.tryTake())
    }

    @Test func aWaitingWriteLiftsTheLimitAndWhatCameInIsPaidBackAfter() async {
        let credits = ReadCredits(1)
        #expect(credits.tryTake())
        let inWrite = await credits.unboundedWhile {
            // The peer is not reading; we must, or neither side would ever move again.
            [credits.tryTake(), credits.tryTake()]
        }
        #expect(inWrite == [true, true])
        // Three batches are out against a limit of one: two handled ones pay the debt, the third frees a credit.
        credits.give()
        credits.give()
        #expect(!credits.tryTake())
        credits.give()
        #expect(credits.tryTake())
    }

    @Test func whatAWriteLetsInIsBounded() async {
        let credits = ReadCredits(0)
        let taken = await credits.unboundedWhile {
            var count = 0
            while count <= ReadCredits.writingAllowance, credits.tryTake() { count += 1 }
            return count
        }
        #expect(taken == ReadCredits.writingAllowance)
    }
}
