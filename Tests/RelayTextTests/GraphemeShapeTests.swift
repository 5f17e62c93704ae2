@testable import RelayText
import Testing

@Suite struct GraphemeShapeTests {
    @Test func emojiSequencesThatNeedShapingAreOneUnit() {
        #expect(GraphemeShape("🇹🇭") == .compoundEmoji)
        #expect(GraphemeShape("👨‍👩‍👧") == .compoundEmoji)
        #expect(GraphemeShape("🏴󠁧󠁢󠁳󠁣󠁴󠁿") == .compoundEmoji)
    }

    @Test func combiningSequencesAreComposedWhenUnicodeCan() {
        #expect(GraphemeShape("e\u{301}") == .scalars(["é"]))
        #expect(GraphemeShape("q\u{301}") == .scalars(["q", "\u{301}"]))
        #expect(GraphemeShape("й") == .scalars(["й"]))
    }

    @Test func presentationSelectorsAndSkinTonesAreDropped() {
        #expect(GraphemeShape("❤️") == .scalars(["❤"]))
        #expect(GraphemeShape("👍🏽") == .scalars(["👍"]))
        #expect(GraphemeShape("\u{200B}") == .scalars([]))
        #expect(GraphemeShape("\n") == .newline)
        #expect(GraphemeShape("\t") == .scalars([" "]))
    }
}
