import CFreeType

/// FreeType's library handle, shared by the faces opened from it.
///
/// FreeType allows one library per thread of use; faces keep their library alive, and neither is
/// `Sendable`, so a whole font stack lives in one isolation domain.
final class FontLibrary {
    let handle: FT_Library

    init() throws(FontError) {
        var library: FT_Library?
        let code = FT_Init_FreeType(&library)
        guard code == 0, let library else { throw .library(code: code) }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}

/// One font file opened with FreeType, rendering anti-aliased glyphs at any pixel size.
final class FontFace {
    /// The file it was loaded from.
    let path: String
    /// A number unique within its typeface, used in glyph cache keys.
    let id: Int
    private let library: FontLibrary
    private let face: FT_Face
    private var currentSize = 0

    init(path: String, id: Int, library: FontLibrary) throws(FontError) {
        var face: FT_Face?
        let code = FT_New_Face(library.handle, path, 0, &face)
        guard code == 0, let face else { throw .face(path: path, code: code) }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(face)
            throw .notScalable(path: path)
        }
        self.path = path
        self.id = id
        self.library = library
        self.face = face
    }

    deinit { FT_Done_Face(face) }

    /// The family name the font declares (`DejaVu Sans`).
    var familyName: String {
        face.pointee.family_name.map { String(cString: $0) } ?? ""
    }

    /// The glyph for a Unicode scalar, or `nil` when the font lacks it.
    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32? {
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        return index == 0 ? nil : UInt32(index)
    }

    /// Ascent, descent (positive, below the baseline) and line height in whole pixels.
    func lineMetrics(size: Int) -> (ascent: Int, descent: Int, height: Int) {
        select(size: size)
        guard let metrics = face.pointee.size?.pointee.metrics else { return (size, 0, size) }
        return (Self.pixels(metrics.ascender), Self.pixels(-metrics.descender), Self.pixels(metrics.height))
    }

    /// Renders one glyph as 8-bit coverage; `nil` when FreeType cannot (a broken glyph), which the
    /// caller draws as a missing glyph.
    func render(glyph index: UInt32, size: Int) -> GlyphBitmap? {
        select(size: size)
        // Outlines only: embedded bitmap strikes (some CJK fonts have 1-bit ones at small sizes)
        // would bypass anti-aliasing and look unlike the rest of the line.
        guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_BITMAP)) == 0, let slot = face.pointee.glyph,
              FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0
        else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
            for row in 0..<rows {
                // A negative pitch means the rows are stored bottom-up.
                let source = pitch >= 0 ? row * pitch : (rows - 1 - row) * -pitch
                for column in 0..<width { coverage[row * width + column] = buffer[source + column] }
            }
        }
        return GlyphBitmap(
            width: width, height: rows, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            advance: Self.pixels(slot.pointee.advance.x), coverage: coverage)
    }

    private func select(size: Int) {
        guard size != currentSize else { return }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(size))
        currentSize = size
    }

    /// Rounds a 26.6 fixed-point value to whole pixels.
    private static func pixels(_ value: FT_Pos) -> Int { Int((value + 32) >> 6) }
}

/// A rendered glyph: coverage from 0 (background) to 255 (ink), placed relative to the pen.
struct GlyphBitmap: Sendable {
    /// Bitmap width in pixels.
    let width: Int
    /// Bitmap height in pixels.
    let height: Int
    /// From the pen position to the bitmap's left edge.
    let left: Int
    /// From the baseline up to the bitmap's top edge.
    let top: Int
    /// How far the pen moves after the glyph, in whole pixels.
    let advance: Int
    /// `width × height` coverage values, row by row.
    let coverage: [UInt8]
}
