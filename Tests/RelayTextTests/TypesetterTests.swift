import RelayDisplay
import RelayText
import Testing

/// Text with the fonts `fonts-dejavu-core` installs.
@Suite struct TypesetterTests {
    static let dejaVu = FontChain.dejaVuDirectory

    private func typesetter(_ chain: FontChain = .dejaVuSans) throws -> Typesetter {
        Typesetter(typeface: try Typeface(chain))
    }

    @Test func dejaVuSansLoadsInBothWeights() throws {
        let typeface = try Typeface(.dejaVuSans)
        #expect(typeface.familyNames == ["DejaVu Sans"])
        let setter = Typesetter(typeface: typeface)
        let regular = setter.width(of: "Relay", style: TextStyle(size: 20))
        let bold = setter.width(of: "Relay", style: TextStyle(size: 20, weight: .bold))
        #expect(regular > 30 && bold > regular)
        #expect(setter.width(of: "Relay", style: TextStyle(size: 40)) > regular * 3 / 2)
        let metrics = setter.metrics(TextStyle(size: 20))
        #expect(metrics.ascent > 15 && metrics.descent > 2 && metrics.lineHeight >= metrics.ascent + metrics.descent)
    }

    @Test func aGlyphTheFirstFontLacksComesFromTheNext() throws {
        // DejaVu Sans Mono has no emoticons; DejaVu Sans has 😎.
        let mono = FontChain(regular: ["\(Self.dejaVu)/DejaVuSansMono.ttf"], bold: ["\(Self.dejaVu)/DejaVuSansMono-Bold.ttf"])
        let chained = FontChain(regular: mono.regular + FontChain.dejaVuSans.regular, bold: mono.bold)
        let style = TextStyle(size: 20)
        let sansWidth = try typesetter().width(of: "😎", style: style)
        let monoAlone = try typesetter(mono)
        #expect(try typesetter(chained).width(of: "😎", style: style) == sansWidth)
        // Without a fallback the missing-glyph box stands in, the same for every missing grapheme.
        #expect(monoAlone.width(of: "😎", style: style) == monoAlone.width(of: "🎉", style: style))
        #expect(monoAlone.width(of: "😎", style: style) != sansWidth)
    }

    @Test func missingFallbacksAreSkippedButAMissingPrimaryFontIsAnError() throws {
        let chain = FontChain(regular: FontChain.dejaVuSans.regular + ["/nonexistent/Font.ttf"], bold: FontChain.dejaVuSans.bold)
        let typeface = try Typeface(chain)
        #expect(typeface.skipped.count == 1)
        #expect(typeface.skipped.first?.description.contains("/nonexistent/Font.ttf") == true)
        #expect(throws: FontError.self) { try Typeface(FontChain(regular: ["/nonexistent/Font.ttf"], bold: [])) }
        #expect(FontChain.installed().regular.first == FontChain.dejaVuSans.regular.first)
    }

    @Test func drawingIsAntiAliasedAndCachesGlyphs() throws {
        let setter = try typesetter()
        var canvas = Canvas(width: 60, height: 30)
        setter.draw("Ag", style: TextStyle(size: 20), x: 2, baseline: 22, color: .white, into: &canvas)
        let levels = Set(canvas.pixels)
        #expect(levels.contains(0xFFFFFF))
        #expect(levels.contains { $0 != 0 && $0 != 0xFFFFFF })
        let cached = setter.cachedGlyphCount
        setter.draw("gA", style: TextStyle(size: 20), x: 2, baseline: 22, color: .white, into: &canvas)
        #expect(setter.cachedGlyphCount == cached)
    }

    @Test func aMissingGlyphDrawsAVisibleBox() throws {
        let setter = try typesetter()
        var canvas = Canvas(width: 40, height: 30)
        setter.draw("🇹🇭", style: TextStyle(size: 20), x: 2, baseline: 22, color: .white, into: &canvas)
        #expect(canvas.pixels.contains(0xFFFFFF))
        #expect(setter.width(of: "🇹🇭", style: TextStyle(size: 20)) == setter.width(of: "👨‍👩‍👧", style: TextStyle(size: 20)))
    }

    /// A peer can send a base under thousands of marks: one grapheme cluster of 4 KB.
    @Test func aClusterNoScriptNeedsIsAMissingBoxAndNotKept() throws {
        let setter = try typesetter()
        let style = TextStyle(size: 20)
        let junk = Character("a" + String(repeating: "\u{0301}\u{0316}", count: 1_000))
        #expect(setter.width(of: junk, style: style) == setter.width(of: "🇹🇭", style: style))
        let kept = setter.cachedClusterCount
        _ = setter.layout(String(junk) + " " + String(junk), style: style, maxWidth: 216)
        #expect(setter.cachedClusterCount <= kept + 2, "only the space and the ellipsis layout measures are new")
        // Ordinary accented text still resolves its marks with their base.
        #expect(setter.width(of: "é", style: style) != setter.width(of: "🇹🇭", style: style))
    }

    @Test func theClusterCacheStartsAgainWhenFull() throws {
        let setter = try typesetter()
        let style = TextStyle(size: 12)
        for scalar in 0x4E00..<(0x4E00 + Typesetter.clusterCacheLimit + 100) {
            guard let unicode = Unicode.Scalar(scalar) else { continue }
            _ = setter.width(of: Character(unicode), style: style)
        }
        #expect(setter.cachedClusterCount <= Typesetter.clusterCacheLimit)
    }

    @Test func layoutWrapsToTheWidthAndEllipsizes() throws {
        let setter = try typesetter()
        let style = TextStyle(size: 18)
        let layout = setter.layout("Встречаемся в семь у фонтана. Не опаздывай!", style: style, maxWidth: 216)
        #expect(layout.lines.count > 1)
        #expect(layout.lines.allSatisfy { $0.width <= 216 })
        #expect(layout.lines.map(\.text).joined(separator: " ") == "Встречаемся в семь у фонтана. Не опаздывай!")
        let cut = setter.layout(String(repeating: "word ", count: 100), style: style, maxWidth: 216, maxLines: 3)
        #expect(cut.lines.count == 3 && cut.isTruncated && cut.lines[2].text.hasSuffix("…"))
        #expect(cut.lines[2].width <= 216)
    }
}
