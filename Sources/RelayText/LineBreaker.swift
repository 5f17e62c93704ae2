/// Greedy line breaking over grapheme clusters, with a tail ellipsis.
///
/// Lines break after spaces and between CJK characters (which are written without spaces),
/// never before closing punctuation or after opening brackets; a word wider than the line is
/// broken between graphemes. Working on `Character`s means no break or truncation can ever split
/// a UTF-8 sequence, a combining sequence, a flag or a ZWJ emoji.
struct LineBreaker {
    /// The width of each character, in pixels.
    let width: (Character) -> Int
    /// The width of "…".
    let ellipsisWidth: Int

    /// One line: which characters it shows, its width, and whether "…" ends it.
    struct Line: Hashable {
        var range: Range<Int>
        var width: Int
        var ellipsis: Bool
    }

    /// Breaks text into lines at most `maxWidth` wide; with `maxLines`, the last line ends in "…"
    /// when text remains.
    func lines(_ characters: [Character], maxWidth: Int, maxLines: Int? = nil) -> [Line] {
        if let maxLines, maxLines < 1 { return [] }
        var lines: [Line] = []
        var start = 0
        while start < characters.count {
            let line = fitLine(characters, from: start, maxWidth: maxWidth)
            var next = line.next
            if !line.hardBreak {
                while next < characters.count, Self.isSpace(characters[next]) { next += 1 }
            }
            if let maxLines, lines.count == maxLines - 1, next < characters.count {
                lines.append(ellipsized(characters, from: start, maxWidth: maxWidth))
                return lines
            }
            lines.append(Line(range: line.range, width: measure(characters[line.range]), ellipsis: false))
            start = next
        }
        return lines
    }

    /// The longest prefix of `characters` (whole graphemes) that fits with "…" after it; the text
    /// itself when it fits as it is.
    func truncated(_ characters: [Character], maxWidth: Int) -> (count: Int, ellipsis: Bool) {
        if !characters.contains(where: \.isNewline), fits(characters[...], maxWidth) {
            return (characters.count, false)
        }
        return (ellipsized(characters, from: 0, maxWidth: maxWidth).range.count, true)
    }

    /// Whether the characters fit in `maxWidth`, measured no further than the edge: a row of a
    /// long text need not have every glyph of it rendered to learn that it does not fit (a few
    /// such rows of distinct glyphs emptied the glyph cache on every frame).
    private func fits(_ characters: ArraySlice<Character>, _ maxWidth: Int) -> Bool {
        var used = 0
        for character in characters {
            used += width(character)
            if used > maxWidth { return false }
        }
        return true
    }

    /// The line starting at `start`: where it ends (trailing spaces trimmed), where the next one
    /// starts, and whether it ended at a newline.
    private func fitLine(_ characters: [Character], from start: Int, maxWidth: Int)
        -> (range: Range<Int>, next: Int, hardBreak: Bool)
    {
        var used = 0
        var lastBreak: (end: Int, next: Int)?
        var index = start
        while index < characters.count {
            let character = characters[index]
            if character.isNewline { return (trimmed(characters, start..<index), index + 1, true) }
            let advance = width(character)
            // Spaces may hang past the edge: they are trimmed, never the reason for a break.
            if used + advance > maxWidth, !Self.isSpace(character) {
                if let lastBreak { return (trimmed(characters, start..<lastBreak.end), lastBreak.next, false) }
                // No break opportunity: break inside the word, keeping at least one grapheme.
                let end = index == start ? index + 1 : index
                return (start..<end, end, false)
            }
            used += advance
            if Self.isSpace(character) {
                lastBreak = (index, index + 1)
            } else if index + 1 < characters.count, Self.canBreak(between: character, and: characters[index + 1]) {
                lastBreak = (index + 1, index + 1)
            }
            index += 1
        }
        return (trimmed(characters, start..<characters.count), characters.count, false)
    }

    /// The text from `start` cut at a grapheme so that it and "…" fit; it stops at a newline.
    private func ellipsized(_ characters: [Character], from start: Int, maxWidth: Int) -> Line {
        var used = 0
        var end = start
        while end < characters.count, !characters[end].isNewline {
            let advance = width(characters[end])
            if used + advance + ellipsisWidth > maxWidth { break }
            used += advance
            end += 1
        }
        let range = trimmed(characters, start..<end)
        return Line(range: range, width: measure(characters[range]) + ellipsisWidth, ellipsis: true)
    }

    private func trimmed(_ characters: [Character], _ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound, Self.isSpace(characters[end - 1]) { end -= 1 }
        return range.lowerBound..<end
    }

    private func measure(_ characters: ArraySlice<Character>) -> Int {
        characters.reduce(0) { $0 + width($1) }
    }

    /// Spaces at which lines break and which hang at line ends.
    static func isSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\u{3000}"
    }

    /// Whether a line may break between two adjacent characters that are not spaces.
    static func canBreak(between before: Character, and after: Character) -> Bool {
        guard isCJK(before) || isCJK(after) else { return false }
        return !noBreakBefore.contains(after) && !noBreakAfter.contains(before)
    }

    /// Characters written without spaces between them: ideographs, kana, Hangul, and CJK
    /// punctuation and full-width forms.
    static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x2E80...0x2FFF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x31FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Closing punctuation and small kana, which must not start a line (kinsoku).
    static let noBreakBefore: Set<Character> = [
        "、", "。", "，", "．", "・", "：", "；", "？", "！", "）", "」", "』", "】", "〕", "〉", "》", "ー", "ぁ",
        "ぃ", "ぅ", "ぇ", "ぉ", "っ", "ゃ", "ゅ", "ょ", "ァ", "ィ", "ゥ", "ェ", "ォ", "ッ", "ャ", "ュ", "ョ", "々",
        ".", ",", ":", ";", "!", "?", ")", "]", "}", "…",
    ]

    /// Opening brackets, which must not end a line.
    static let noBreakAfter: Set<Character> = ["（", "「", "『", "【", "〔", "〈", "《", "(", "[", "{"]
}
