@testable import RelayText
import Testing

@Suite struct GraphemeShapeTests {
    @Test func emojiSequencesThatNeedALigatureAreCompound() {
        for sequence: Character in ["🇹🇭", "👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"] {
            #expect(GraphemeShape(sequence).isCompoundEmoji && GraphemeShape(sequence).isEmoji, "\(sequence)")
        }
        #expect(!GraphemeShape("😎").isCompoundEmoji)
    }

    @Test func emojiPresentationDecidesTheColourFont() {
        #expect(GraphemeShape("😎").isEmoji)  // Emoji_Presentation
        #expect(GraphemeShape("❤️").isEmoji)  // asked for with U+FE0F
        #expect(GraphemeShape("👍🏽").isEmoji)  // a skin tone
        #expect(GraphemeShape("1️⃣").isEmoji)  // a keycap
        #expect(!GraphemeShape("❤").isEmoji)  // text presentation by default
        #expect(!GraphemeShape("😎\u{FE0E}").isEmoji)  // text presentation asked for
        #expect(!GraphemeShape("a").isEmoji && !GraphemeShape("1").isEmoji)
    }

    @Test func selectorsJoinersAndSkinTonesNeedNoGlyphOfTheirOwn() {
        #expect(GraphemeShape.isIgnorable("\u{FE0F}") && GraphemeShape.isIgnorable("\u{200D}") && GraphemeShape.isIgnorable("\u{1F3FD}"))
        #expect(!GraphemeShape.isIgnorable("a") && !GraphemeShape.isIgnorable("\u{301}"))
    }
}
