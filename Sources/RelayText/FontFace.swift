import CFreeType
import CHarfBuzz

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

/// One font file: HarfBuzz shapes with it, FreeType renders its glyphs at any pixel size.
///
/// The file is mapped once (HarfBuzz's blob uses `mmap`) and FreeType reads from that mapping,
/// so a font costs address space, and memory only for the pages its glyphs touch.
final class FontFace {
    /// The file it was loaded from.
    let path: String
    /// A number unique within its typeface, used in glyph cache keys.
    let id: Int
    /// Whether its glyphs are colour bitmaps (Noto Color Emoji's CBDT), scaled to the size asked.
    let isColor: Bool
    private let library: FontLibrary
    /// The file's mapping, which FreeType's face reads from.
    private let blob: OpaquePointer?
    private let face: FT_Face
    /// HarfBuzz's font on the same file, positioning in 26.6 pixels at the size last set.
    private let shapingFont: OpaquePointer
    private var currentSize = 0
    private var shapingSize = 0

    init(path: String, id: Int, library: FontLibrary) throws(FontError) {
        // One mapping of the file for both: HarfBuzz maps it, FreeType reads from that memory.
        let blob = hb_blob_create_from_file(path)
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else {
            hb_blob_destroy(blob)
            throw .face(path: path, code: 1)  // FreeType's "cannot open resource"
        }
        var face: FT_Face?
        let code = data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { bytes in
            FT_New_Memory_Face(library.handle, bytes, FT_Long(length), 0, &face)
        }
        guard code == 0, let face else {
            hb_blob_destroy(blob)
            throw .face(path: path, code: code)
        }
        let flags = face.pointee.face_flags
        let scalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        let color = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 && face.pointee.num_fixed_sizes > 0
        guard scalable || color, let shapingFace = hb_face_create(blob, 0), let font = hb_font_create(shapingFace) else {
            FT_Done_Face(face)
            hb_blob_destroy(blob)
            throw .notScalable(path: path)
        }
        hb_face_destroy(shapingFace)
        self.path = path
        self.id = id
        self.isColor = !scalable
        self.library = library
        self.blob = blob
        self.face = face
        self.shapingFont = font
    }

    deinit {
        hb_font_destroy(shapingFont)
        FT_Done_Face(face)
        // FreeType read from the mapping until now.
        hb_blob_destroy(blob)
    }

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
        guard !isColor, let metrics = face.pointee.size?.pointee.metrics else { return (size, size / 4, size * 5 / 4) }
        return (Self.pixels(metrics.ascender), Self.pixels(-metrics.descender), Self.pixels(metrics.height))
    }

    /// Shapes `buffer` (text, direction and script set) into positioned glyphs of this font at
    /// `size` pixels per em, in 26.6 fixed point.
    func shape(_ buffer: OpaquePointer?, size: Int) {
        if size != shapingSize {
            hb_font_set_scale(shapingFont, Int32(size * 64), Int32(size * 64))
            shapingSize = size
        }
        hb_shape(shapingFont, buffer, nil, 0)
    }

    /// Renders one glyph: 8-bit coverage, or for a colour font premultiplied colour scaled from
    /// its bitmap strike to `size`; `nil` when FreeType cannot (a broken glyph), which the caller
    /// skips.
    func render(glyph index: UInt32, size: Int) -> GlyphBitmap? {
        if isColor { return renderColor(glyph: index, size: size) }
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
            width: width, height: rows, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), coverage: coverage)
    }

    /// A colour glyph from the strike nearest above `size` (else the largest), shrunk to `size`
    /// by averaging the source pixels each target pixel covers.
    private func renderColor(glyph index: UInt32, size: Int) -> GlyphBitmap? {
        let strikes = (0..<Int(face.pointee.num_fixed_sizes)).map { Int(face.pointee.available_sizes[$0].y_ppem >> 6) }
        let strike = strikes.enumerated().filter { $0.element >= size }.min { $0.element < $1.element }?.offset
            ?? strikes.enumerated().max { $0.element < $1.element }?.offset ?? 0
        guard FT_Select_Size(face, FT_Int(strike)) == 0,
              FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_COLOR)) == 0, let slot = face.pointee.glyph
        else { return nil }
        currentSize = 0  // the strike replaced any outline size
        let bitmap = slot.pointee.bitmap
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), let buffer = bitmap.buffer, strikes[strike] > 0 else { return nil }
        // Never enlarged: past the strike's size an emoji stays at it.
        let scale = min(1, Double(size) / Double(strikes[strike]))
        let source = ColorBitmap(width: Int(bitmap.width), height: Int(bitmap.rows), pitch: Int(bitmap.pitch), bgra: buffer)
        let scaled = source.shrunk(by: scale)
        return GlyphBitmap(
            width: scaled.width, height: scaled.height, left: Int((Double(slot.pointee.bitmap_left) * scale).rounded()),
            top: Int((Double(slot.pointee.bitmap_top) * scale).rounded()), coverage: scaled.alpha, color: scaled.pixels)
    }

    private func select(size: Int) {
        guard size != currentSize, !isColor else { return }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(size))
        currentSize = size
    }

    /// Rounds a 26.6 fixed-point value to whole pixels.
    static func pixels(_ value: FT_Pos) -> Int { Int((value + 32) >> 6) }
}

/// A rendered glyph, placed relative to the pen: coverage from 0 (background) to 255 (ink), and
/// for a colour glyph its pixels too.
struct GlyphBitmap: Sendable {
    /// Bitmap width in pixels.
    let width: Int
    /// Bitmap height in pixels.
    let height: Int
    /// From the pen position to the bitmap's left edge.
    let left: Int
    /// From the baseline up to the bitmap's top edge.
    let top: Int
    /// `width × height` coverage values, row by row (a colour glyph's alpha).
    let coverage: [UInt8]
    /// A colour glyph's `width × height` pixels as premultiplied `0xAARRGGBB`; `nil` for a glyph
    /// drawn in the text's colour.
    var color: [UInt32]? = nil
}
