/// Rendered glyphs by font, size and glyph index, so each is rasterised once.
///
/// The cache is bounded: past `limit` glyphs it starts afresh. A watch shows a few sizes of a
/// few hundred glyphs, so in practice it fills once and stays; the bound only stops a stream of
/// ever-new CJK text from growing memory without end.
struct GlyphCache {
    struct Key: Hashable {
        let face: Int
        let size: Int
        let glyph: UInt32
    }

    let limit: Int
    private var glyphs: [Key: GlyphBitmap] = [:]

    init(limit: Int = 4096) {
        self.limit = limit
    }

    /// The cached glyph, rendering and storing it on a miss; `nil` when it cannot be rendered.
    mutating func glyph(_ key: Key, render: () -> GlyphBitmap?) -> GlyphBitmap? {
        if let glyph = glyphs[key] { return glyph }
        guard let glyph = render() else { return nil }
        if glyphs.count >= limit { glyphs.removeAll(keepingCapacity: true) }
        glyphs[key] = glyph
        return glyph
    }

    /// How many glyphs are cached.
    var count: Int { glyphs.count }
}
