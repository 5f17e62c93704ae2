@testable import RelayText
import RelayDisplay
import Testing

/// Text in other scripts, with the fonts the bootstrap installs (`FontChain.everyScript`).
@Suite struct ScriptTests {
    private func typesetter(_ chain: FontChain = .everyScript) throws -> Typesetter {
        Typesetter(typeface: try Typeface(chain))
    }

    @Test func aParagraphTakesTheDirectionOfItsFirstStrongCharacter() throws {
        let setter = try typesetter()
        let style = TextStyle(size: 16)
        let layout = setter.layout("שלום world\nhello שלום\n123 مرحبا", style: style, maxWidth: 200)
        #expect(layout.lines.map(\.isRightToLeft) == [true, false, true])
        #expect(setter.line("שלום עולם", style: style, maxWidth: 200).isRightToLeft)
    }

    /// Rule L2: the Hebrew words of a left-to-right line are drawn right to left, the Latin
    /// around them left to right.
    @Test func runsAreOrderedVisually() {
        #expect(BidiLevels.visualOrder([0, 1, 0]) == [0, 1, 2])
        #expect(BidiLevels.visualOrder([1, 2, 1]) == [2, 1, 0])
        #expect(BidiLevels.visualOrder([1, 1, 2, 2, 1]) == [4, 2, 3, 1, 0])
        #expect(BidiLevels.visualOrder([]) == [])
        let levels = BidiLevels(Array("ab אב".unicodeScalars.map(\.value)), direction: .auto)
        #expect(!levels.isRightToLeft && levels.levels == [0, 0, 0, 1, 1])
    }

    /// Thai is written without spaces: ICU's dictionary finds the words a line may break between.
    @Test func thaiBreaksBetweenWordsOnly() {
        // สวัสดี | ครับ: "hello" and the polite particle; a break inside สวัสดี would split the word.
        let characters = Array("สวัสดีครับ")
        let allowed = LineBreakOpportunities(characters[...]).allowed
        let start = try! #require(characters.firstIndex(of: "ค"))
        #expect(allowed[start])
        #expect(allowed[1..<start].allSatisfy { !$0 }, "\(allowed)")
    }

    /// Cut inside a word, Arabic letters take their final forms: each line is measured as drawn.
    @Test func linesOfJoiningScriptsFitWhenCutInsideAWord() throws {
        let setter = try typesetter()
        let style = TextStyle(size: 10)
        for width in [21, 30, 45] {
            let layout = setter.layout("نلتقي في الساعة السابعة عند النافورة. لا تتأخر! 123", style: style, maxWidth: width)
            for line in layout.lines { #expect(line.width <= width || line.text.count == 1, "width \(width): \(line.text) is \(line.width)") }
        }
    }

    @Test func aScriptFontOpensOnlyWhenItsTextAppears() throws {
        let setter = try typesetter()
        _ = setter.width(of: "Hello", style: TextStyle(size: 16))
        #expect(setter.typeface.familyNames == ["DejaVu Sans"])
        _ = setter.width(of: "नमस्ते", style: TextStyle(size: 16))
        #expect(setter.typeface.familyNames.contains("Noto Sans Devanagari"))
        #expect(!setter.typeface.familyNames.contains("Noto Sans Thai"))
    }

    /// Colour emoji are colour; on a monochrome panel they are drawn in the text's colour.
    @Test func emojiAreInColourUnlessThePanelIsMonochrome() throws {
        func drawn(_ chain: FontChain) throws -> Canvas {
            var canvas = Canvas(width: 40, height: 30)
            try typesetter(chain).draw("😎", style: TextStyle(size: 20), x: 2, baseline: 22, color: .white, into: &canvas)
            return canvas
        }
        func isGrey(_ pixel: UInt32) -> Bool { pixel >> 16 & 0xFF == pixel >> 8 & 0xFF && pixel >> 8 & 0xFF == pixel & 0xFF }
        let colour = try drawn(.everyScript)
        #expect(colour.pixels.contains { !isGrey($0) }, "Noto Color Emoji's yellow")
        var monochrome = FontChain.everyScript
        monochrome.emoji = nil
        let plain = try drawn(monochrome)
        #expect(plain.pixels.allSatisfy(isGrey) && plain.pixels.contains { $0 != 0 }, "Symbola's outline in white")
    }

    /// A ZWJ inside an Indic cluster asks for a half form; it is no emoji sequence, and a tab
    /// is a space: neither is a missing box.
    @Test func indicJoinersAndTabsAreText() throws {
        let setter = try typesetter()
        let style = TextStyle(size: 16)
        for text in ["ශ්‍රී ලංකා", "क्‍ष", "a\tb"] {
            var canvas = Canvas(width: 120, height: 30)
            setter.draw(text, style: style, x: 2, baseline: 22, color: .white, into: &canvas)
            #expect(!GraphemeShape(Array(text)[0]).isCompoundEmoji, "\(text)")
        }
        #expect(setter.width(of: "a\tb", style: style) == setter.width(of: "a b", style: style))
    }

    /// On a monochrome panel a thumb with a skin tone is a thumb, not a thumb and a swatch.
    @Test func aSkinToneAMonochromeFontLacksIsLeftOut() throws {
        var monochrome = FontChain.everyScript
        monochrome.emoji = nil
        let setter = try typesetter(monochrome)
        let style = TextStyle(size: 20)
        #expect(setter.width(of: "👍🏽", style: style) == setter.width(of: "👍", style: style))
    }

    @Test func negativeWidthsAndLineCountsGiveNothingRatherThanATrap() throws {
        let setter = try typesetter()
        let style = TextStyle(size: 12)
        #expect(setter.layout("hello world", style: style, maxWidth: -5, maxLines: 3).lines.count <= 3)
        #expect(setter.layout("hello world", style: style, maxWidth: 100, maxLines: -1).lines.isEmpty)
        #expect(setter.line("hello", style: style, maxWidth: -10).text == "…")
    }

    /// A layout cut short before breaking (many characters of no width) still ends in "…".
    @Test func textLeftOutByTheCutIsMarked() throws {
        let setter = try typesetter(.dejaVuSans)
        let text = "hi" + String(repeating: "\u{200B}", count: 40) + " there"
        let layout = setter.layout(text, style: TextStyle(size: 12), maxWidth: 20, maxLines: 1)
        #expect(layout.isTruncated, "\(layout.lines.map(\.text))")
    }
}
