@testable import RelayLinkRuntime
import RelayCore
import RelayTestSupport
import Testing

/// The reader's credits: a bound on unhandled batches, lifted while the loop waits in a write,
/// and what was taken in meanwhile paid back before the reader goes on.
@Suite(.timeLimit(.minutes(1))) struct ReadCreditsTests {
    /// Whether `take` returns within a second; a take that must wait is cancelled, which lets it return.
    private static func takes(_ credits: ReadCredits) async -> Bool {
        await within(.seconds(1)) {
            await credits.take()
            return !Task.isCancelled
        } ?? false
    }

    @Test func theLimitHoldsAndAHandledBatchLetsOneMoreIn() async {
        let credits = ReadCredits(2)
        #expect(await Self.takes(credits))
        #expect(await Self.takes(credits))
        #expect(await !Self.takes(credits))
        credits.give()
        #expect(await Self.takes(credits))
    }

    @Test func aWaitingWriteLiftsTheLimitAndWhatCameInIsPaidBackAfter() async {
        let credits = ReadCredits(1)
        #expect(await Self.takes(credits))
        let inWrite = await credits.unboundedWhile {
            // The peer is not reading; we must, or neither side would ever move again.
            [await Self.takes(credits), await Self.takes(credits)]
        }
        #expect(inWrite == [true, true])
        // Three batches are out against a limit of one: two handled ones pay the debt, the third frees a credit.
        credits.give()
        credits.give()
        #expect(await !Self.takes(credits))
        credits.give()
        #expect(await Self.takes(credits))
    }

    @Test func whatAWriteLetsInIsBounded() async {
        let credits = ReadCredits(0)
        let taken = await credits.unboundedWhile {
            var count = 0
            while count <= ReadCredits.writingAllowance, await Self.takes(credits) { count += 1 }
            return count
        }
        #expect(taken == ReadCredits.writingAllowance)
    }
}
