/// The weight of a text style.
public enum FontWeight: Hashable, Sendable {
    /// Body text.
    case regular
    /// Titles and emphasis.
    case bold
}

/// A loaded font chain: the faces of each weight, in fallback order.
///
/// Loading is strict for the primary fonts (without them nothing can be drawn) and lenient for
/// fallbacks, which are skipped with the reason kept in `skipped`.
public final class Typeface {
    let regular: [FontFace]
    let bold: [FontFace]
    /// Fallback fonts that could not be loaded, and why.
    public let skipped: [FontError]

    /// Loads the fonts of a chain.
    public init(_ chain: FontChain) throws(FontError) {
        let library = try FontLibrary()
        var loaded: [String: FontFace] = [:]
        var skipped: [FontError] = []
        func load(_ paths: [String]) throws(FontError) -> [FontFace] {
            var faces: [FontFace] = []
            for (position, path) in paths.enumerated() {
                do throws(FontError) {
                    if let face = loaded[path] {
                        faces.append(face)
                    } else {
                        let face = try FontFace(path: path, id: loaded.count, library: library)
                        loaded[path] = face
                        faces.append(face)
                    }
                } catch {
                    if position == 0 { throw error }
                    if !skipped.contains(error) { skipped.append(error) }
                }
            }
            guard !faces.isEmpty else { throw .noFonts(tried: paths) }
            return faces
        }
        regular = try load(chain.regular)
        bold = try load(chain.bold)
        self.skipped = skipped
    }

    /// The faces of a weight, primary first.
    func faces(_ weight: FontWeight) -> [FontFace] {
        weight == .bold ? bold : regular
    }

    /// The family names of the regular chain, for logs and the handshake's capabilities.
    public var familyNames: [String] { regular.map(\.familyName) }
}
