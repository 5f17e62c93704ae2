/// What a grapheme cluster (a Swift `Character`) is, for choosing the font that draws it.
struct GraphemeShape: Hashable {
    /// Drawn as an emoji: by the colour emoji font when there is one (an emoji-presentation
    /// character, or one asked for with U+FE0F; a sequence of emoji; a flag; a keycap).
    let isEmoji: Bool
    /// A sequence that only a font with its ligature draws as one picture: a ZWJ sequence, a
    /// flag (two regional indicators, or a tag sequence). Drawn part by part it would misstate
    /// the text ("🇹🇭" as "T H" letters, a family as three people).
    let isCompoundEmoji: Bool

    init(_ character: Character) {
        let scalars = Array(character.unicodeScalars)
        let regionalIndicators = scalars.filter { (0x1F1E6...0x1F1FF).contains($0.value) }.count
        let visible = scalars.filter { !Self.isIgnorable($0) }
        // A ZWJ also asks Indic scripts for a half form (Sinhala ශ්‍රී, Devanagari क्‍ष): a sequence
        // is an emoji one only with a pictograph in it.
        isCompoundEmoji =
            regionalIndicators >= 2
            || (scalars.contains("\u{200D}") && visible.count > 1 && scalars.contains(where: { $0.value >= 0x80 && $0.properties.isEmoji }))
            || scalars.contains(where: { (0xE0020...0xE007F).contains($0.value) })  // tag sequences (subdivision flags)
        guard let first = scalars.first, !scalars.contains("\u{FE0E}") else {
            isEmoji = false
            return
        }
        isEmoji =
            isCompoundEmoji
            || scalars.contains("\u{FE0F}") || scalars.contains("\u{20E3}")
            || scalars.contains(where: \.properties.isEmojiModifier)
            || first.properties.isEmojiPresentation
    }

    /// Scalars that select a presentation or join emoji but draw nothing themselves: variation
    /// selectors, ZWJ/ZWNJ, word joiners, soft hyphens, and skin-tone modifiers (a yellow thumb
    /// is a better fallback than a box: the shaper leaves out a modifier the font lacks). A font
    /// need not have them to draw the cluster.
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF: true  // variation selectors
        case 0x200B...0x200F, 0x2060...0x2064, 0x00AD, 0xFEFF: true  // zero-width and format characters
        case 0x1F3FB...0x1F3FF: true  // emoji skin-tone modifiers
        default: false
        }
    }

    /// An emoji skin-tone modifier (U+1F3FB–U+1F3FF).
    static func isSkinTone(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F3FB...0x1F3FF).contains(scalar.value)
    }
}
