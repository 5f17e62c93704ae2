/// Text shaped into positioned glyphs on one line, in visual order (left to right), with the
/// advance of each character in logical order; positions in 26.6 fixed point (1/64 pixel).
struct ShapedText {
    /// One glyph to draw.
    struct Glyph {
        /// What draws it: a face's glyph, or the box for a cluster no font has.
        enum Source {
            case face(id: Int, glyph: UInt32)
            case missingBox
        }

        let source: Source
        /// From the line's left edge to the glyph's origin.
        let x: Int
        /// Up from the baseline.
        let y: Int
    }

    /// The glyphs, left to right.
    var glyphs: [Glyph]
    /// The advance of each character (grapheme cluster), in logical order: the line breaker's
    /// measure.
    var advances: [Int]
    /// The whole line's advance.
    var advance: Int
    /// Whether its paragraph runs right to left.
    var isRightToLeft: Bool

    /// The advance in whole pixels, rounded up: text measured to fit in its own width does.
    var width: Int { (advance + 63) >> 6 }
}
