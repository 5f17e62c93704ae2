public import RelayDisplay

/// Measures, breaks and draws text with a typeface's fallback chain.
///
/// Each grapheme cluster is resolved once per weight to the glyphs that draw it (or to a
/// missing-glyph box), and each glyph is rendered once per size, so laying out the same
/// notification again costs only dictionary look-ups. Not `Sendable`: it owns FreeType state and
/// caches, and belongs to the one task that renders the screen.
public final class Typesetter {
    /// The fonts.
    public let typeface: Typeface
    private var glyphCache = GlyphCache()
    private var clusters: [ClusterKey: ClusterGlyphs] = [:]
    private var metricsCache: [TextStyle: LineMetrics] = [:]
    /// The most scalars a cluster is drawn from; emoji sequences and stacked diacritics of real
    /// text stay far below.
    public static let longestCluster = 32
    /// Distinct clusters kept at most: the cache starts again when full, as the glyph cache does.
    public static let clusterCacheLimit = 16_384

    /// The ellipsis that ends truncated text.
    public static let ellipsis: Character = "…"

    /// Creates a typesetter for a typeface.
    public init(typeface: Typeface) {
        self.typeface = typeface
    }

    /// The style's line metrics, from its primary font.
    public func metrics(_ style: TextStyle) -> LineMetrics {
        if let cached = metricsCache[style] { return cached }
        let line = typeface.faces(style.weight)[0].lineMetrics(size: style.size)
        let metrics = LineMetrics(ascent: line.ascent, descent: line.descent, lineHeight: max(line.height, line.ascent + line.descent))
        metricsCache[style] = metrics
        return metrics
    }

    /// The advance of one grapheme cluster.
    public func width(of character: Character, style: TextStyle) -> Int {
        switch resolve(character, weight: style.weight) {
        case .glyphs(let glyphs):
            return glyphs.reduce(0) { $0 + (bitmap($1, size: style.size)?.advance ?? 0) }
        case .missing:
            return MissingGlyphBox(size: style.size).advance
        case .nothing:
            return 0
        }
    }

    /// The width of a single line of text (newlines count as nothing).
    public func width(of text: String, style: TextStyle) -> Int {
        text.reduce(0) { $0 + width(of: $1, style: style) }
    }

    /// Breaks text into lines at most `maxWidth` wide, with "…" ending the last line when
    /// `maxLines` cuts text off.
    public func layout(_ text: String, style: TextStyle, maxWidth: Int, maxLines: Int? = nil) -> TextLayout {
        let characters = Array(text)
        let lines = breaker(style).lines(characters, maxWidth: maxWidth, maxLines: maxLines).map { line in
            TextLine(
                text: String(characters[line.range]) + (line.ellipsis ? String(Self.ellipsis) : ""),
                width: line.width, isTruncated: line.ellipsis)
        }
        return TextLayout(lines: lines, metrics: metrics(style))
    }

    /// The text on one line, cut at a grapheme and ended with "…" when it is wider than `maxWidth`.
    public func truncated(_ text: String, style: TextStyle, maxWidth: Int) -> String {
        let characters = Array(text)
        let fit = breaker(style).truncated(characters, maxWidth: maxWidth)
        return String(characters[..<fit.count]) + (fit.ellipsis ? String(Self.ellipsis) : "")
    }

    /// Draws one line of text with its baseline at `baseline`, starting at `x`.
    public func draw(_ text: String, style: TextStyle, x: Int, baseline: Int, color: Color, into canvas: inout Canvas) {
        var pen = x
        for character in text {
            switch resolve(character, weight: style.weight) {
            case .glyphs(let glyphs):
                for glyph in glyphs {
                    guard let bitmap = bitmap(glyph, size: style.size) else { continue }
                    bitmap.coverage.withUnsafeBufferPointer { coverage in
                        canvas.blend(
                            coverage: coverage, maskWidth: bitmap.width, maskHeight: bitmap.height,
                            x: pen + bitmap.left, y: baseline - bitmap.top, color: color)
                    }
                    pen += bitmap.advance
                }
            case .missing:
                let box = MissingGlyphBox(size: style.size)
                box.draw(x: pen, baseline: baseline, color: color, into: &canvas)
                pen += box.advance
            case .nothing:
                continue
            }
        }
    }

    /// Draws laid-out lines, the first line's top at `top`; each line is placed by `alignment`
    /// within `x ..< x + width`.
    public func draw(
        _ layout: TextLayout, style: TextStyle, x: Int, top: Int, width: Int, alignment: TextAlignment = .leading,
        color: Color, into canvas: inout Canvas
    ) {
        for (index, line) in layout.lines.enumerated() {
            let baseline = top + index * layout.metrics.lineHeight + layout.metrics.ascent
            let offset: Int
            switch alignment {
            case .leading: offset = 0
            case .center: offset = (width - line.width) / 2
            case .trailing: offset = width - line.width
            }
            draw(line.text, style: style, x: x + offset, baseline: baseline, color: color, into: &canvas)
        }
    }

    /// How many glyphs have been rendered and kept.
    public var cachedGlyphCount: Int { glyphCache.count }

    /// How many grapheme clusters are resolved and kept (bounded by `clusterCacheLimit`).
    public var cachedClusterCount: Int { clusters.count }

    private func breaker(_ style: TextStyle) -> LineBreaker {
        LineBreaker(width: { self.width(of: $0, style: style) }, ellipsisWidth: width(of: Self.ellipsis, style: style))
    }

    private func bitmap(_ glyph: FaceGlyph, size: Int) -> GlyphBitmap? {
        let face = typeface.faces(glyph.weight)[glyph.faceIndex]
        return glyphCache.glyph(GlyphCache.Key(face: face.id, size: size, glyph: glyph.glyph)) {
            face.render(glyph: glyph.glyph, size: size)
        }
    }

    /// The glyphs that draw a cluster: all from the first font that has every scalar, so a base
    /// and its marks match; a missing box when no font has them all.
    private func resolve(_ character: Character, weight: FontWeight) -> ClusterGlyphs {
        // A cluster no script needs (a base under thousands of marks, as only a peer sending
        // junk makes) is a missing box at once: resolved and cached, it cost milliseconds to
        // hash on every look-up and stayed in memory for good.
        guard character.unicodeScalars.count <= Self.longestCluster else { return .missing }
        if clusters.count >= Self.clusterCacheLimit { clusters.removeAll(keepingCapacity: true) }
        let key = ClusterKey(character: character, weight: weight)
        if let cached = clusters[key] { return cached }
        let resolved: ClusterGlyphs
        switch GraphemeShape(character) {
        case .newline:
            resolved = .nothing
        case .compoundEmoji:
            resolved = .missing
        case .scalars(let scalars) where scalars.isEmpty:
            resolved = .nothing
        case .scalars(let scalars):
            resolved = typeface.faces(weight).enumerated().lazy.compactMap { faceIndex, face -> ClusterGlyphs? in
                let glyphs = scalars.compactMap(face.glyphIndex(for:))
                guard glyphs.count == scalars.count else { return nil }
                return .glyphs(glyphs.map { FaceGlyph(weight: weight, faceIndex: faceIndex, glyph: $0) })
            }.first ?? .missing
        }
        clusters[key] = resolved
        return resolved
    }
}

/// How lines are placed horizontally.
public enum TextAlignment: Hashable, Sendable {
    /// Flush left.
    case leading
    /// Centred.
    case center
    /// Flush right.
    case trailing
}

private struct ClusterKey: Hashable {
    let character: Character
    let weight: FontWeight
}

private struct FaceGlyph: Hashable {
    let weight: FontWeight
    let faceIndex: Int
    let glyph: UInt32
}

private enum ClusterGlyphs {
    case glyphs([FaceGlyph])
    case missing
    case nothing
}
