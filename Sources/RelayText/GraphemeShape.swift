import Foundation

/// How a grapheme cluster (a Swift `Character`) is drawn without a shaping engine.
///
/// Relay has no HarfBuzz, so it cannot form the ligatures that turn a ZWJ sequence or a pair of
/// regional indicators into one picture. Drawing their parts side by side would misstate the
/// text ("🇹🇭" as "T H" letters, a family as three people), so such clusters are drawn as one
/// missing-glyph box; everything else is drawn scalar by scalar after canonical composition.
enum GraphemeShape: Hashable {
    /// Draw these scalars in order (combining marks follow their base); empty draws nothing.
    case scalars([Unicode.Scalar])
    /// An emoji sequence that needs shaping: one unit, drawn as a missing-glyph box.
    case compoundEmoji
    /// A line break.
    case newline

    /// Decides how a cluster is drawn.
    init(_ character: Character) {
        if character.isNewline {
            self = .newline
            return
        }
        let scalars = Array(character.unicodeScalars)
        let regionalIndicators = scalars.filter { (0x1F1E6...0x1F1FF).contains($0.value) }.count
        let visible = scalars.filter { !Self.isIgnorable($0) }
        if regionalIndicators >= 2
            || (scalars.contains("\u{200D}") && visible.count > 1)
            || scalars.contains(where: { (0xE0020...0xE007F).contains($0.value) })  // tag sequences (subdivision flags)
        {
            self = .compoundEmoji
            return
        }
        // Composition turns "e" + U+0301 into "é", which every Latin font has, instead of relying
        // on the font to position the mark.
        let composed = String(String.UnicodeScalarView(visible)).precomposedStringWithCanonicalMapping
        self = .scalars(composed.unicodeScalars.map { $0 == "\t" ? " " : $0 })
    }

    /// Scalars that select a presentation or join emoji but draw nothing themselves: variation
    /// selectors, ZWJ/ZWNJ, word joiners, soft hyphens and skin-tone modifiers (a yellow thumb is
    /// a better fallback than a box).
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF: true  // variation selectors
        case 0x200B...0x200F, 0x2060...0x2064, 0x00AD, 0xFEFF: true  // zero-width and format characters
        case 0x1F3FB...0x1F3FF: true  // emoji skin-tone modifiers
        default: false
        }
    }
}
