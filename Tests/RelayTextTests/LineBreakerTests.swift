@testable import RelayText
import Testing

/// The breaking rules with every character 10 pixels wide and "…" 10 pixels, breaking where
/// ICU (UAX #14) allows.
@Suite struct LineBreakerTests {
    private func breaker(_ text: String) -> LineBreaker {
        let characters = Array(text)
        return LineBreaker(
            characters: characters, advances: characters.map { $0.isNewline ? 0 : 10 },
            breakable: LineBreakOpportunities(characters[...]).allowed, ellipsisWidth: 10)
    }

    private func lines(_ text: String, width: Int, maxLines: Int? = nil) -> [String] {
        let characters = Array(text)
        return breaker(text).lines(maxWidth: width, maxLines: maxLines).map {
            String(characters[$0.range]) + ($0.ellipsis ? "…" : "")
        }
    }

    @Test func breaksAtSpacesAndTrimsThem() {
        #expect(lines("the quick brown fox", width: 100) == ["the quick", "brown fox"])
        #expect(lines("the   quick", width: 50) == ["the", "quick"])
    }

    @Test func spacesHangPastTheEdge() {
        #expect(lines("abcde fghij", width: 50) == ["abcde", "fghij"])
    }

    @Test func aWordWiderThanTheLineBreaksBetweenGraphemes() {
        #expect(lines("abcdefghij", width: 40) == ["abcd", "efgh", "ij"])
        #expect(lines("🇹🇭🇹🇭🇹🇭", width: 20) == ["🇹🇭🇹🇭", "🇹🇭"])
        // Even narrower than one grapheme: one per line, never nothing.
        #expect(lines("ab", width: 5) == ["a", "b"])
    }

    @Test func cjkBreaksBetweenCharactersButNotBeforeClosingPunctuation() {
        #expect(lines("今日は良い天気です", width: 40) == ["今日は良", "い天気で", "す"])
        #expect(lines("今日は。明日も", width: 30) == ["今日", "は。明", "日も"])
        #expect(lines("私は「猫」", width: 30) == ["私は", "「猫」"])
    }

    @Test func newlinesAreHardBreaksAndKeepEmptyLines() {
        #expect(lines("one\n\ntwo", width: 100) == ["one", "", "two"])
        #expect(lines("one\r\ntwo", width: 100) == ["one", "two"])
    }

    @Test func theLastAllowedLineEndsInAnEllipsisWhenTextRemains() {
        #expect(lines("the quick brown fox jumps", width: 100, maxLines: 2) == ["the quick", "brown fox…"])
        #expect(lines("the quick brown", width: 100, maxLines: 2) == ["the quick", "brown"])
        #expect(lines("abcdefghijklmnop", width: 50, maxLines: 1) == ["abcd…"])
        #expect(lines("abc\ndef", width: 100, maxLines: 1) == ["abc…"])
        #expect(lines("anything", width: 100, maxLines: 0) == [])
    }

    @Test func truncationReportsWholeGraphemes() {
        #expect(breaker("short").truncated(maxWidth: 50) == (5, false))
        #expect(breaker("toolong").truncated(maxWidth: 50) == (4, true))
    }
}
