public import RelayDisplay

/// Measures, breaks and draws text in every script: shaped by HarfBuzz, ordered by FriBidi,
/// broken where ICU allows (Docs/ARCHITECTURE.md, "Text").
///
/// Each grapheme cluster's font is chosen once per script and weight, each text laid out or cut
/// to a line once per style and width, each line shaped once per style and direction, and each
/// glyph rendered once per size, so drawing the same screen again costs dictionary look-ups. Not `Sendable`: it owns FreeType and HarfBuzz state and caches,
/// and belongs to the one task that renders the screen.
public final class Typesetter {
    /// The fonts.
    public let typeface: Typeface
    private var glyphCache = GlyphCache()
    private var fonts = FontChoices()
    private var shapedLines: [ShapedKey: ShapedText] = [:]
    private var singleLines: [LayoutKey: TextLine] = [:]
    private var layouts: [LayoutKey: TextLayout] = [:]
    private var metricsCache: [TextStyle: LineMetrics] = [:]
    /// The most scalars a cluster is drawn from; longer ones are a missing-glyph box.
    public static let longestCluster = FontChoices.longestCluster
    /// Distinct clusters whose font is kept at most: the choices start again when full.
    public static let clusterCacheLimit = FontChoices.limit
    /// Shaped lines, and lines cut to a width, kept at most: each starts again when full.
    public static let shapedLineLimit = 1024
    /// Laid-out texts kept at most (a screen shows a few): they start again when full.
    public static let layoutLimit = 64

    /// The ellipsis that ends truncated text.
    public static let ellipsis: Character = "…"

    /// Creates a typesetter for a typeface.
    public init(typeface: Typeface) {
        self.typeface = typeface
    }

    /// The style's line metrics, from its primary font.
    public func metrics(_ style: TextStyle) -> LineMetrics {
        if let cached = metricsCache[style] { return cached }
        let line = typeface.primary(style.weight).lineMetrics(size: style.size)
        let metrics = LineMetrics(ascent: line.ascent, descent: line.descent, lineHeight: max(line.height, line.ascent + line.descent))
        metricsCache[style] = metrics
        return metrics
    }

    /// The advance of one grapheme cluster.
    public func width(of character: Character, style: TextStyle) -> Int {
        shaped(String(character), style: style, direction: .auto).width
    }

    /// The width of a single line of text (newlines count as nothing).
    public func width(of text: String, style: TextStyle) -> Int {
        shaped(text, style: style, direction: .auto).width
    }

    /// Breaks text into lines at most `maxWidth` wide, with "…" ending the last line when
    /// `maxLines` cuts text off. Each paragraph (between newlines) takes its direction from its
    /// first strong character; its lines carry it, to be aligned and ordered by it.
    public func layout(_ text: String, style: TextStyle, maxWidth: Int, maxLines: Int? = nil) -> TextLayout {
        let key = LayoutKey(text: text, style: style, maxWidth: maxWidth, maxLines: maxLines)
        if let known = layouts[key] { return known }
        if layouts.count >= Self.layoutLimit { layouts.removeAll(keepingCapacity: true) }
        let layout = makeLayout(text, style: style, maxWidth: max(0, maxWidth), maxLines: maxLines.map { max(0, $0) })
        layouts[key] = layout
        return layout
    }

    private func makeLayout(_ text: String, style: TextStyle, maxWidth: Int, maxLines: Int?) -> TextLayout {
        var characters = Array(text)
        // What a line shows is narrower than this many characters of at least a pixel each, one
        // more saying that text remains: a 4 KB body cut to 3 lines is not shaped whole. (A
        // character of no width is rare; should the cut leave text out all the same, the last
        // line says so with "…".)
        var wasCut = false
        if let maxLines, characters.count > maxLines * (maxWidth + 1) + 1 {
            characters.removeSubrange((maxLines * (maxWidth + 1) + 1)...)
            wasCut = true
        }
        var advances = [Int](repeating: 0, count: characters.count)
        var breakable = [Bool](repeating: false, count: characters.count)
        var rightToLeft = [Bool](repeating: false, count: characters.count)
        var start = 0
        while start <= characters.count {
            let end = characters[start...].firstIndex(where: \.isNewline) ?? characters.count
            let paragraph = characters[start..<end]
            let shaped = Shaper(typeface: typeface, style: style).shape(paragraph, direction: .auto, fonts: &fonts)
            advances.replaceSubrange(start..<end, with: shaped.advances)
            breakable.replaceSubrange(start..<end, with: LineBreakOpportunities(paragraph).allowed)
            rightToLeft.replaceSubrange(start..<end, with: repeatElement(shaped.isRightToLeft, count: end - start))
            start = end + 1
        }
        func lineText(_ range: Range<Int>, ellipsis: Bool) -> String {
            String(characters[range]) + (ellipsis ? String(Self.ellipsis) : "")
        }
        func direction(_ range: Range<Int>) -> BidiLevels.Direction {
            !range.isEmpty && rightToLeft[range.lowerBound] ? .rightToLeft : .leftToRight
        }
        var breaker = LineBreaker(characters: characters, advances: advances, breakable: breakable, ellipsisWidth: ellipsisAdvance(style))
        // Each line as it will be drawn (and then is, from the cache).
        breaker.measure = { range, ellipsis in self.shaped(lineText(range, ellipsis: ellipsis), style: style, direction: direction(range)).advance }
        var lines = breaker.lines(maxWidth: maxWidth * 64, maxLines: maxLines)
        if wasCut, let last = lines.last, !last.ellipsis {
            lines[lines.count - 1] = breaker.ellipsized(from: last.range.lowerBound, maxWidth: maxWidth * 64)
        }
        return TextLayout(
            lines: lines.map { line in
                TextLine(
                    text: lineText(line.range, ellipsis: line.ellipsis), width: (line.width + 63) >> 6, isTruncated: line.ellipsis,
                    isRightToLeft: direction(line.range) == .rightToLeft)
            }, metrics: metrics(style))
    }

    /// The text on one line, cut at a grapheme and ended with "…" when it is wider than `maxWidth`.
    public func truncated(_ text: String, style: TextStyle, maxWidth: Int) -> String {
        line(text, style: style, maxWidth: maxWidth).text
    }

    /// The text as one line: cut at a grapheme and ended with "…" (at its logical end, so on the
    /// left of right-to-left text) when it is wider than `maxWidth`, with its width and direction.
    public func line(_ text: String, style: TextStyle, maxWidth: Int) -> TextLine {
        let key = LayoutKey(text: text, style: style, maxWidth: maxWidth, maxLines: 1)
        if let known = singleLines[key] { return known }
        if singleLines.count >= Self.shapedLineLimit { singleLines.removeAll(keepingCapacity: true) }
        let line = makeLine(text, style: style, maxWidth: max(0, maxWidth))
        singleLines[key] = line
        return line
    }

    private func makeLine(_ text: String, style: TextStyle, maxWidth: Int) -> TextLine {
        // As in `layout`: no more than this can show.
        let characters = Array(text.prefix(maxWidth + 2))
        let wasCut = !text.dropFirst(characters.count).isEmpty
        let measured = Shaper(typeface: typeface, style: style).shape(characters[...], direction: .auto, fonts: &fonts)
        let direction: BidiLevels.Direction = measured.isRightToLeft ? .rightToLeft : .leftToRight
        func prefix(_ count: Int, ellipsis: Bool) -> String {
            String(characters[..<count]) + (ellipsis ? String(Self.ellipsis) : "")
        }
        var breaker = LineBreaker(
            characters: characters, advances: measured.advances, breakable: [], ellipsisWidth: ellipsisAdvance(style))
        breaker.measure = { range, ellipsis in self.shaped(prefix(range.upperBound, ellipsis: ellipsis), style: style, direction: direction).advance }
        let fit = breaker.truncated(maxWidth: maxWidth * 64, textRemains: wasCut)
        let shown = prefix(fit.count, ellipsis: fit.ellipsis)
        return TextLine(
            text: shown, width: shaped(shown, style: style, direction: direction).width, isTruncated: fit.ellipsis,
            isRightToLeft: measured.isRightToLeft)
    }

    /// Draws one line of text with its baseline at `baseline`, starting at `x`, in the order its
    /// directions give.
    public func draw(_ text: String, style: TextStyle, x: Int, baseline: Int, color: Color, into canvas: inout Canvas) {
        draw(shaped(text, style: style, direction: .auto), style: style, x: x, baseline: baseline, color: color, into: &canvas)
    }

    /// Draws laid-out lines, the first line's top at `top`; each line is placed by `alignment`
    /// within `x ..< x + width`, `leading` meaning the side its paragraph starts on (the right
    /// for Hebrew or Arabic).
    public func draw(
        _ layout: TextLayout, style: TextStyle, x: Int, top: Int, width: Int, alignment: TextAlignment = .leading,
        color: Color, into canvas: inout Canvas
    ) {
        for (index, line) in layout.lines.enumerated() {
            let baseline = top + index * layout.metrics.lineHeight + layout.metrics.ascent
            draw(line, style: style, x: x, baseline: baseline, width: width, alignment: alignment, color: color, into: &canvas)
        }
    }

    /// Draws one laid-out line with its baseline at `baseline`, placed by `alignment` within
    /// `x ..< x + width` (`leading`: the side its paragraph starts on).
    public func draw(
        _ line: TextLine, style: TextStyle, x: Int, baseline: Int, width: Int, alignment: TextAlignment = .leading,
        color: Color, into canvas: inout Canvas
    ) {
        let offset: Int
        switch alignment {
        case .leading: offset = line.isRightToLeft ? width - line.width : 0
        case .center: offset = (width - line.width) / 2
        case .trailing: offset = line.isRightToLeft ? 0 : width - line.width
        case .right: offset = width - line.width
        }
        let shaped = shaped(line.text, style: style, direction: line.isRightToLeft ? .rightToLeft : .leftToRight)
        draw(shaped, style: style, x: x + offset, baseline: baseline, color: color, into: &canvas)
    }

    /// How many glyphs have been rendered and kept.
    public var cachedGlyphCount: Int { glyphCache.count }

    /// How many grapheme clusters have their font chosen and kept (bounded by `clusterCacheLimit`).
    public var cachedClusterCount: Int { fonts.count }

    private func draw(_ shaped: ShapedText, style: TextStyle, x: Int, baseline: Int, color: Color, into canvas: inout Canvas) {
        for glyph in shaped.glyphs {
            let left = x + ((glyph.x + 32) >> 6)
            let base = baseline - ((glyph.y + 32) >> 6)
            switch glyph.source {
            case .missingBox:
                MissingGlyphBox(size: style.size).draw(x: left, baseline: base, color: color, into: &canvas)
            case .face(let id, let index):
                guard let bitmap = bitmap(face: id, glyph: index, size: style.size) else { continue }
                if let pixels = bitmap.color {
                    pixels.withUnsafeBufferPointer { pixels in
                        canvas.blend(
                            premultiplied: pixels, imageWidth: bitmap.width, imageHeight: bitmap.height,
                            x: left + bitmap.left, y: base - bitmap.top)
                    }
                } else {
                    bitmap.coverage.withUnsafeBufferPointer { coverage in
                        canvas.blend(
                            coverage: coverage, maskWidth: bitmap.width, maskHeight: bitmap.height,
                            x: left + bitmap.left, y: base - bitmap.top, color: color)
                    }
                }
            }
        }
    }

    /// `text` as one line, shaped once per style and direction.
    private func shaped(_ text: String, style: TextStyle, direction: BidiLevels.Direction) -> ShapedText {
        let key = ShapedKey(text: text, style: style, direction: direction)
        if let known = shapedLines[key] { return known }
        if shapedLines.count >= Self.shapedLineLimit { shapedLines.removeAll(keepingCapacity: true) }
        let shaped = Shaper(typeface: typeface, style: style).shape(Array(text)[...], direction: direction, fonts: &fonts)
        shapedLines[key] = shaped
        return shaped
    }

    private func ellipsisAdvance(_ style: TextStyle) -> Int {
        shaped(String(Self.ellipsis), style: style, direction: .leftToRight).advance
    }

    private func bitmap(face id: Int, glyph: UInt32, size: Int) -> GlyphBitmap? {
        glyphCache.glyph(GlyphCache.Key(face: id, size: size, glyph: glyph)) {
            typeface.face(id: id).render(glyph: glyph, size: size)
        }
    }
}

/// How lines are placed horizontally.
public enum TextAlignment: Hashable, Sendable {
    /// On the side the line's paragraph starts: flush left, or flush right for right-to-left text.
    case leading
    /// Centred.
    case center
    /// On the side the line's paragraph ends.
    case trailing
    /// Flush right whichever way the line runs: the start of a screen mirrored for a language
    /// written right to left, where a Latin line lines up with the Hebrew ones.
    case right
}

private struct LayoutKey: Hashable {
    let text: String
    let style: TextStyle
    let maxWidth: Int
    let maxLines: Int?
}

private struct ShapedKey: Hashable {
    let text: String
    let style: TextStyle
    let direction: BidiLevels.Direction
}
