import CHarfBuzz

/// Turns a line of text into positioned glyphs: bidirectional levels by FriBidi, then runs of
/// one level, script and font, each shaped by HarfBuzz with the whole line as context (Arabic
/// joins across a change of font), then the runs in visual order.
///
/// The font of each grapheme cluster is the first that has all of its characters: Noto Color
/// Emoji for an emoji, the font of its script, then the chain. A cluster none has is one
/// missing-glyph box. Not `Sendable`: it uses the typeface's fonts, and belongs to its task.
struct Shaper {
    let typeface: Typeface
    let style: TextStyle

    /// Shapes `characters` as one paragraph's line, its direction as given or from the text.
    func shape(_ characters: ArraySlice<Character>, direction: BidiLevels.Direction, fonts: inout FontChoices) -> ShapedText {
        // Each character's script and font first: which scalars HarfBuzz is given depends on the font.
        let scripts = Self.scripts(of: characters)
        let choices = characters.indices.map { index in
            fonts.font(for: characters[index], script: scripts[index - characters.startIndex], weight: style.weight, typeface: typeface)
        }

        // Scalars, and for each the character it belongs to: HarfBuzz and FriBidi work on scalars.
        var scalars: [UInt32] = []
        var characterOf: [Int] = []
        var firstScalar: [Int] = []
        for (index, character) in characters.enumerated() {
            firstScalar.append(scalars.count)
            let face: FontFace? = if case .face(let id) = choices[index] { typeface.face(id: id) } else { nil }
            for scalar in character.unicodeScalars {
                // A monochrome font cannot tint an emoji: its skin tone is left out, not drawn
                // as a swatch or a box beside it (a lone one stays: it is all there is to show).
                if let face, !face.isColor, GraphemeShape.isSkinTone(scalar), character.unicodeScalars.count > 1 { continue }
                // A tab is a space here: lines are set flush, with no tab stops.
                scalars.append(scalar == "\t" ? 0x20 : scalar.value)
                characterOf.append(index)
            }
        }
        let bidi = BidiLevels(scalars, direction: direction)
        var shaped = ShapedText(glyphs: [], advances: [Int](repeating: 0, count: characters.count), advance: 0, isRightToLeft: bidi.isRightToLeft)
        guard !characters.isEmpty else { return shaped }

        // Runs of characters sharing a level, a script and a font.
        var runs: [Run] = []
        for index in choices.indices {
            let level = bidi.levels[firstScalar[index]]
            let font = choices[index]
            if let last = runs.last, last.level == level, last.script == scripts[index], last.font == font, font != .missingBox {
                runs[runs.count - 1].characters.append(index)
            } else {
                runs.append(Run(characters: [index], level: level, script: scripts[index], font: font))
            }
        }

        // Each run's glyphs, in its own visual order, positioned from the run's start.
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        var runGlyphs: [[ShapedText.Glyph]] = []
        var runAdvances: [Int] = []
        for run in runs {
            var glyphs: [ShapedText.Glyph] = []
            var pen = 0
            switch run.font {
            case .nothing:
                break
            case .missingBox:
                let advance = MissingGlyphBox(size: style.size).advance * 64
                glyphs.append(ShapedText.Glyph(source: .missingBox, x: 0, y: 0))
                shaped.advances[run.characters[0]] += advance
                pen = advance
            case .face(let id):
                let start = firstScalar[run.characters[0]]
                let end = run.characters.last! + 1 < firstScalar.count ? firstScalar[run.characters.last! + 1] : scalars.count
                hb_buffer_clear_contents(buffer)
                hb_buffer_add_utf32(buffer, scalars, Int32(scalars.count), UInt32(start), Int32(end - start))
                hb_buffer_set_direction(buffer, run.level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
                hb_buffer_set_script(buffer, run.script)
                // No language: the same forms whatever the process's locale (HarfBuzz's default
                // would read LC_CTYPE).
                typeface.face(id: id).shape(buffer, size: style.size)
                var count: UInt32 = 0
                let infos = hb_buffer_get_glyph_infos(buffer, &count)
                let positions = hb_buffer_get_glyph_positions(buffer, &count)
                for index in 0..<Int(count) {
                    guard let info = infos?[index], let position = positions?[index] else { continue }
                    glyphs.append(ShapedText.Glyph(source: .face(id: id, glyph: info.codepoint), x: pen + Int(position.x_offset), y: Int(position.y_offset)))
                    shaped.advances[characterOf[Int(info.cluster)]] += Int(position.x_advance)
                    pen += Int(position.x_advance)
                }
            }
            runGlyphs.append(glyphs)
            runAdvances.append(pen)
        }

        // The runs left to right.
        var pen = 0
        for index in BidiLevels.visualOrder(runs.map(\.level)) {
            shaped.glyphs += runGlyphs[index].map { ShapedText.Glyph(source: $0.source, x: pen + $0.x, y: $0.y) }
            pen += runAdvances[index]
        }
        shaped.advance = pen
        return shaped
    }

    /// A run: consecutive characters (by index) shaped together.
    private struct Run {
        var characters: [Int]
        let level: UInt8
        let script: hb_script_t
        let font: FontChoices.Choice
    }

    /// Each character's script: that of its first character with a script of its own;
    /// punctuation, digits and spaces (Common, Inherited) take the script before them, or at
    /// the start the one after.
    static func scripts(of characters: ArraySlice<Character>) -> [hb_script_t] {
        let functions = hb_unicode_funcs_get_default()
        var own: [hb_script_t?] = characters.map { character in
            for scalar in character.unicodeScalars {
                let script = hb_unicode_script(functions, scalar.value)
                if script != HB_SCRIPT_COMMON, script != HB_SCRIPT_INHERITED, script != HB_SCRIPT_UNKNOWN { return script }
            }
            return nil
        }
        var previous = own.first { $0 != nil } ?? nil
        for index in own.indices {
            if let script = own[index] { previous = script } else { own[index] = previous }
        }
        return own.map { $0 ?? HB_SCRIPT_COMMON }
    }
}

/// A script's ISO 15924 code, as `FontChain.scripts` is keyed: `Arab`.
func scriptTag(_ script: hb_script_t) -> String {
    let value = script.rawValue
    return String(decoding: [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) }, as: UTF8.self)
}

/// Which font draws each grapheme cluster, decided once per cluster, script and weight and
/// kept (bounded: it starts again when full, as the glyph cache does).
struct FontChoices {
    /// How a cluster is drawn.
    enum Choice: Hashable {
        /// By the face with this id.
        case face(id: Int)
        /// By a missing-glyph box: no font has it.
        case missingBox
        /// Not at all: a line break.
        case nothing
    }

    private struct Key: Hashable {
        let character: Character
        let script: UInt32
        let weight: FontWeight
    }

    /// Distinct clusters kept at most.
    static let limit = 16_384
    /// The most scalars a cluster is drawn from; emoji sequences and stacked diacritics of real
    /// text stay far below.
    static let longestCluster = 32

    private var choices: [Key: Choice] = [:]

    var count: Int { choices.count }

    mutating func font(for character: Character, script: hb_script_t, weight: FontWeight, typeface: Typeface) -> Choice {
        // A cluster no script needs (a base under thousands of marks, as only a peer sending
        // junk makes) is a missing box at once: resolved and cached, it cost milliseconds to
        // hash on every look-up and stayed in memory for good.
        guard character.unicodeScalars.count <= Self.longestCluster else { return .missingBox }
        let key = Key(character: character, script: script.rawValue, weight: weight)
        if let known = choices[key] { return known }
        if choices.count >= Self.limit { choices.removeAll(keepingCapacity: true) }
        let choice = Self.choose(character, script: scriptTag(script), weight: weight, typeface: typeface)
        choices[key] = choice
        return choice
    }

    private static func choose(_ character: Character, script: String, weight: FontWeight, typeface: Typeface) -> Choice {
        if character.isNewline { return .nothing }
        let shape = GraphemeShape(character)
        // A tab is drawn as a space, which fonts have (U+0009 they do not).
        let scalars = character.unicodeScalars.filter { !GraphemeShape.isIgnorable($0) }.map { $0 == "\t" ? " " : $0 }
        if scalars.isEmpty { return .face(id: typeface.primary(weight).id) }
        if shape.isEmoji, let emoji = typeface.emojiFace, scalars.allSatisfy({ emoji.glyphIndex(for: $0) != nil }) {
            return .face(id: emoji.id)
        }
        // A sequence only a colour emoji font joins (a family, a flag) would otherwise show as
        // its parts side by side, misstating the text: one box says something is here.
        if shape.isCompoundEmoji { return .missingBox }
        let face = typeface.firstFace(weight, script: script) { face in
            !face.isColor && scalars.allSatisfy { face.glyphIndex(for: $0) != nil }
        }
        return face.map { .face(id: $0.id) } ?? .missingBox
    }
}
