import Glibc

/// Which font files to use, in fallback order: the first font that has every character of a
/// grapheme draws it.
public struct FontChain: Hashable, Sendable {
    /// Regular weight: the primary font first, then fallbacks.
    public var regular: [String]
    /// Bold weight: the primary bold font first, then fallbacks (regular fallbacks are fine: a
    /// bold CJK font is rarely installed, and a regular glyph beats a missing one).
    public var bold: [String]

    /// Creates a chain from font file paths.
    public init(regular: [String], bold: [String]) {
        self.regular = regular
        self.bold = bold
    }

    /// Where Debian's `fonts-dejavu-core` installs DejaVu Sans.
    public static let dejaVuDirectory = "/usr/share/fonts/truetype/dejavu"

    /// DejaVu Sans and DejaVu Sans Bold alone: exactly what `fonts-dejavu-core` guarantees, so
    /// pictures rendered with it (the golden tests) are the same on every machine.
    public static let dejaVuSans = FontChain(
        regular: ["\(dejaVuDirectory)/DejaVuSans.ttf"], bold: ["\(dejaVuDirectory)/DejaVuSans-Bold.ttf"])

    /// Fallback fonts worth trying after DejaVu Sans, with the Debian package that installs each:
    /// monochrome emoji and symbols first, then Chinese, Japanese and Korean.
    public static let fallbackCandidates = [
        "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",  // fonts-symbola
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  // fonts-droid-fallback
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  // fonts-wqy-microhei
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  // fonts-noto-cjk
        "/usr/share/fonts/truetype/unifont/unifont.ttf",  // fonts-unifont: every BMP character
    ]

    /// DejaVu Sans followed by whichever fallback candidates are installed: what the wearable
    /// uses, showing as many scripts as the machine has fonts for.
    public static func installed(fallbacks: [String] = fallbackCandidates) -> FontChain {
        let present = fallbacks.filter { access($0, R_OK) == 0 }
        return FontChain(regular: dejaVuSans.regular + present, bold: dejaVuSans.bold + present)
    }
}
