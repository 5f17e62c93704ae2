import RelayText
import Testing

/// Truncation at every width never splits a UTF-8 sequence or a grapheme cluster.
@Suite struct TruncationTests {
    static let samples = [
        "Flags 🇹🇭🇯🇵🇺🇦 in a row",
        "Family 👨‍👩‍👧 and 👩🏽‍💻 coders",
        "Combining: q\u{301}e\u{301}a\u{308}\u{323} marks",
        "Встречаемся в семь у фонтана",
        "今日は良い天気ですね、散歩しましょう",
        "한국어 텍스트도 됩니다",
        "Mixed 😎 text ❤️ with 👍🏽 emoji",
    ]

    /// A list row of a long text measures up to its edge, not the whole text.
    @Test func truncatingALongTextRendersOnlyWhatIsNeeded() throws {
        let setter = Typesetter(typeface: try Typeface(.dejaVuSans))
        let style = TextStyle(size: 18)
        let long = String((0..<2_000).compactMap { Unicode.Scalar(0x0400 + $0 % 256) }.map(Character.init))
        let before = setter.cachedGlyphCount
        let row = setter.truncated(long, style: style, maxWidth: 200)
        #expect(row.hasSuffix("…") && row.count < 40)
        #expect(setter.cachedGlyphCount - before < 64, "\(setter.cachedGlyphCount - before) glyphs rendered for one row")
    }

    @Test(arguments: samples)
    func truncationKeepsWholeGraphemes(text: String) throws {
        let setter = Typesetter(typeface: try Typeface(.dejaVuSans))
        let style = TextStyle(size: 18)
        let original = Array(text)
        for width in stride(from: 0, through: setter.width(of: text, style: style) + 10, by: 3) {
            let result = setter.truncated(text, style: style, maxWidth: width)
            var kept = Array(result)
            if kept.last == "…", result != text { kept.removeLast() }
            // A prefix of the original's Characters: no grapheme was cut, so no UTF-8 sequence was.
            #expect(Array(original.prefix(kept.count)) == kept, "width \(width): \(result)")
            #expect(String(decoding: Array(result.utf8), as: UTF8.self) == result)
            #expect(result.unicodeScalars.starts(with: String(kept).unicodeScalars))
        }
    }

    @Test(arguments: samples)
    func wrappingKeepsWholeGraphemes(text: String) throws {
        let setter = Typesetter(typeface: try Typeface(.dejaVuSans))
        let original = Array(text)
        for width in [30, 60, 120] {
            let lines = setter.layout(text, style: TextStyle(size: 18), maxWidth: width).lines
            let rejoined = Array(lines.map(\.text).joined())
            // The lines hold every grapheme in order; only breaking spaces are gone.
            #expect(rejoined.filter { $0 != " " } == original.filter { $0 != " " }, "width \(width)")
        }
    }

    @Test func theEllipsisFollowsAWholeFlagOrFamily() throws {
        let setter = Typesetter(typeface: try Typeface(.dejaVuSans))
        let style = TextStyle(size: 18)
        let text = "🇹🇭👨‍👩‍👧🇹🇭👨‍👩‍👧"
        let box = setter.width(of: "🇹🇭", style: style)
        let ellipsis = setter.width(of: "…", style: style)
        #expect(setter.truncated(text, style: style, maxWidth: box + ellipsis) == "🇹🇭…")
        #expect(setter.truncated(text, style: style, maxWidth: 2 * box + ellipsis - 1) == "🇹🇭…")
        #expect(setter.truncated(text, style: style, maxWidth: 2 * box + ellipsis) == "🇹🇭👨‍👩‍👧…")
    }
}
