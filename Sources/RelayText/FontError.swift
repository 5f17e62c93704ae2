/// Why a font could not be loaded or used.
public enum FontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// FreeType could not start.
    case library(code: Int32)
    /// A font file could not be opened (missing, unreadable or not a font).
    case face(path: String, code: Int32)
    /// The font has neither outlines nor colour bitmaps (a bitmap-only monochrome font), which
    /// this renderer cannot scale.
    case notScalable(path: String)
    /// No font of a chain could be loaded.
    case noFonts(tried: [String])

    /// A readable explanation naming the file and FreeType's error code.
    public var description: String {
        switch self {
        case .library(let code):
            return "FreeType failed to initialise (error \(code))"
        case .face(let path, let code):
            return "cannot load font \(path) (FreeType error \(code)); install fonts-dejavu-core"
        case .notScalable(let path):
            return "font \(path) has no outlines (bitmap-only fonts other than colour emoji are not supported)"
        case .noFonts(let tried):
            return "no usable font among \(tried.joined(separator: ", ")); install fonts-dejavu-core"
        }
    }
}
