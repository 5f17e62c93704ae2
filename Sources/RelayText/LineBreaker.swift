/// Greedy line breaking over grapheme clusters, with a tail ellipsis.
///
/// Where a line may break comes from the text (`LineBreakOpportunities`: UAX #14 by ICU), how
/// wide each cluster is from its shaping; a word wider than the line is broken between
/// clusters. Working on `Character`s means no break or truncation can ever split a UTF-8
/// sequence, a combining sequence, a flag or a ZWJ emoji. Widths are in any one unit (the
/// typesetter's 26.6 fixed point).
///
/// A line is chosen by the sum of its characters' advances, as shaped in their paragraph; with
/// `measure`, it is then measured as it will be drawn, and shortened by a character at a time
/// while wider than the line: cut inside a word, Arabic letters take other (wider) forms at
/// the cut than they had joined.
struct LineBreaker {
    /// The characters, newlines included (each ends a line).
    let characters: [Character]
    /// The advance of each character.
    let advances: [Int]
    /// Whether a line may start at each character.
    let breakable: [Bool]
    /// The width of "…".
    let ellipsisWidth: Int
    /// The width of the characters in a range as drawn on a line of their own, with "…" after
    /// them when the flag says so; `nil` sums the advances.
    var measure: ((Range<Int>, _ ellipsis: Bool) -> Int)? = nil

    /// One line: which characters it shows, its width, and whether "…" ends it.
    struct Line: Hashable {
        var range: Range<Int>
        var width: Int
        var ellipsis: Bool
    }

    /// Breaks the text into lines at most `maxWidth` wide; with `maxLines`, the last line ends in
    /// "…" when text remains.
    func lines(maxWidth: Int, maxLines: Int? = nil) -> [Line] {
        if let maxLines, maxLines < 1 { return [] }
        var lines: [Line] = []
        var start = 0
        while start < characters.count {
            var line = fitLine(from: start, maxWidth: maxWidth)
            // Shaped on its own the line may be wider: one character fewer until it fits.
            while line.range.count > 1, width(of: line.range, ellipsis: false) > maxWidth {
                line = (line.range.lowerBound..<(line.range.upperBound - 1), line.range.upperBound - 1, false)
            }
            var next = line.next
            if !line.hardBreak {
                while next < characters.count, Self.isSpace(characters[next]) { next += 1 }
            }
            if let maxLines, lines.count == maxLines - 1, next < characters.count {
                lines.append(ellipsized(from: start, maxWidth: maxWidth))
                return lines
            }
            lines.append(Line(range: line.range, width: width(of: line.range, ellipsis: false), ellipsis: false))
            start = next
        }
        return lines
    }

    /// The longest prefix (whole graphemes) that fits with "…" after it; the text itself when it
    /// fits as it is and, by `textRemains`, is all of it.
    func truncated(maxWidth: Int, textRemains: Bool = false) -> (count: Int, ellipsis: Bool) {
        if !textRemains, !characters.contains(where: \.isNewline), width(of: 0..<characters.count, ellipsis: false) <= maxWidth {
            return (characters.count, false)
        }
        return (ellipsized(from: 0, maxWidth: maxWidth).range.count, true)
    }

    /// The line starting at `start`: where it ends (trailing spaces trimmed), where the next one
    /// starts, and whether it ended at a newline.
    private func fitLine(from start: Int, maxWidth: Int) -> (range: Range<Int>, next: Int, hardBreak: Bool) {
        var used = 0
        var lastBreak: Int?
        var index = start
        while index < characters.count {
            let character = characters[index]
            if character.isNewline { return (trimmed(start..<index), index + 1, true) }
            if index > start, breakable[index] { lastBreak = index }
            let advance = advances[index]
            // Spaces may hang past the edge: they are trimmed, never the reason for a break.
            if used + advance > maxWidth, !Self.isSpace(character) {
                if let lastBreak { return (trimmed(start..<lastBreak), lastBreak, false) }
                // No break opportunity: break inside the word, keeping at least one grapheme.
                let end = index == start ? index + 1 : index
                return (start..<end, end, false)
            }
            used += advance
            index += 1
        }
        return (trimmed(start..<characters.count), characters.count, false)
    }

    /// The text from `start` cut at a grapheme so that it and "…" fit; it stops at a newline.
    func ellipsized(from start: Int, maxWidth: Int) -> Line {
        var used = 0
        var end = start
        while end < characters.count, !characters[end].isNewline {
            if used + advances[end] + ellipsisWidth > maxWidth { break }
            used += advances[end]
            end += 1
        }
        var range = trimmed(start..<end)
        while !range.isEmpty, width(of: range, ellipsis: true) > maxWidth { range = trimmed(range.lowerBound..<(range.upperBound - 1)) }
        return Line(range: range, width: width(of: range, ellipsis: true), ellipsis: true)
    }

    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound, Self.isSpace(characters[end - 1]) { end -= 1 }
        return range.lowerBound..<end
    }

    private func width(of range: Range<Int>, ellipsis: Bool) -> Int {
        if let measure { return measure(range, ellipsis) }
        return advances[range].reduce(0, +) + (ellipsis ? ellipsisWidth : 0)
    }

    /// Spaces, which hang at line ends and are trimmed there.
    static func isSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\u{3000}"
    }
}
