import Glibc

/// The weight of a text style.
public enum FontWeight: Hashable, Sendable {
    /// Body text.
    case regular
    /// Titles and emphasis.
    case bold
}

/// A font chain's faces, opened as text needs them.
///
/// The primary fonts are opened at once, strictly (without them nothing can be drawn); every
/// other font when the first cluster that may need it appears, so a wearable that never shows
/// Tamil never opens the Tamil font. A font that cannot be opened is skipped, and why is kept in
/// `skipped`. Not `Sendable`: it belongs to the typesetter's task, as FreeType requires.
public final class Typeface {
    /// The chain it opens fonts from.
    public let chain: FontChain
    private let library: FontLibrary
    private var opened: [String: FontFace] = [:]
    private var unusable: Set<String> = []
    private var byID: [FontFace] = []
    private let primaries: (regular: FontFace, bold: FontFace)
    /// Fonts that could not be loaded, and why: missing files when the typeface was made, others
    /// when first needed.
    public private(set) var skipped: [FontError] = []

    /// Opens the chain's primary fonts, and notes the chain's missing files.
    public init(_ chain: FontChain) throws(FontError) {
        self.chain = chain
        let library = try FontLibrary()
        self.library = library
        guard let regular = chain.regular.first else { throw .noFonts(tried: []) }
        var faces: [String: FontFace] = [:]
        var byID: [FontFace] = []
        func open(_ path: String) throws(FontError) -> FontFace {
            if let face = faces[path] { return face }
            let face = try FontFace(path: path, id: byID.count, library: library)
            faces[path] = face
            byID.append(face)
            return face
        }
        primaries = (try open(regular), try open(chain.bold.first ?? regular))
        opened = faces
        self.byID = byID
        let others = chain.regular.dropFirst() + chain.bold.dropFirst() + chain.scripts.values.flatMap { [$0.regular] + ($0.bold.map { [$0] } ?? []) }
            + (chain.emoji.map { [$0] } ?? [])
        for path in Set(others).sorted() where access(path, R_OK) != 0 {
            unusable.insert(path)
            skipped.append(.face(path: path, code: Self.missing))
        }
    }

    /// FreeType's "cannot open resource", for a file that is not there.
    private static let missing: Int32 = 1

    /// The primary face of a weight, whose metrics set the line.
    func primary(_ weight: FontWeight) -> FontFace {
        weight == .bold ? primaries.bold : primaries.regular
    }

    /// The face with an id (from a shaped glyph).
    func face(id: Int) -> FontFace { byID[id] }

    /// The colour emoji face, if the chain has one and it opens.
    var emojiFace: FontFace? { chain.emoji.flatMap(open) }

    /// The first face that `draws` for a cluster of `script` in `weight`, trying in order the
    /// script's own font, then the chain's; each font is opened only when its turn comes.
    func firstFace(_ weight: FontWeight, script: String, where draws: (FontFace) -> Bool) -> FontFace? {
        if let fonts = chain.scripts[script] {
            let path = weight == .bold ? fonts.bold ?? fonts.regular : fonts.regular
            if let face = open(path) ?? (path == fonts.regular ? nil : open(fonts.regular)), draws(face) { return face }
        }
        if draws(primary(weight)) { return primary(weight) }
        for path in (weight == .bold ? chain.bold : chain.regular).dropFirst() {
            if let face = open(path), draws(face) { return face }
        }
        return nil
    }

    private func open(_ path: String) -> FontFace? {
        if let face = opened[path] { return face }
        guard !unusable.contains(path) else { return nil }
        do {
            let face = try FontFace(path: path, id: byID.count, library: library)
            opened[path] = face
            byID.append(face)
            return face
        } catch {
            unusable.insert(path)
            skipped.append(error)
            return nil
        }
    }

    /// The family names of the regular chain's fonts opened so far, primary first, for logs.
    public var familyNames: [String] {
        var names: [String] = []
        for face in byID where !names.contains(face.familyName) { names.append(face.familyName) }
        return names
    }
}
