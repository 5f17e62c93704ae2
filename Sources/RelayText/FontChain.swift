import Glibc

/// Which font files to use: a primary font with its fallbacks, a font per script, and a colour
/// emoji font. A grapheme cluster is drawn by the first that has every character of it:
/// the emoji font for emoji, then the font of the cluster's script, then the chain in order.
public struct FontChain: Hashable, Sendable {
    /// Regular weight: the primary font first, then fallbacks for any script.
    public var regular: [String]
    /// Bold weight: the primary bold font first, then fallbacks (regular fallbacks are fine: a
    /// bold CJK font is rarely installed, and a regular glyph beats a missing one).
    public var bold: [String]
    /// Fonts for one script each, by its ISO 15924 code as HarfBuzz reports it (`Arab`), opened
    /// when text of that script first appears.
    public var scripts: [String: ScriptFonts]
    /// A colour emoji font (Noto Color Emoji), tried first for emoji; `nil` draws emoji with the
    /// monochrome fallbacks (a panel without colour).
    public var emoji: String?

    /// The fonts of one script.
    public struct ScriptFonts: Hashable, Sendable {
        /// Its regular font.
        public var regular: String
        /// Its bold font; `nil` uses the regular one.
        public var bold: String?

        /// Creates the fonts of a script.
        public init(regular: String, bold: String? = nil) {
            self.regular = regular
            self.bold = bold
        }
    }

    /// Creates a chain from font file paths.
    public init(regular: [String], bold: [String], scripts: [String: ScriptFonts] = [:], emoji: String? = nil) {
        self.regular = regular
        self.bold = bold
        self.scripts = scripts
        self.emoji = emoji
    }

    /// Where Debian's `fonts-dejavu-core` installs DejaVu Sans.
    public static let dejaVuDirectory = "/usr/share/fonts/truetype/dejavu"
    /// Where Debian's `fonts-noto-core` and `fonts-noto-color-emoji` install theirs.
    public static let notoDirectory = "/usr/share/fonts/truetype/noto"
    /// Where Debian's `fonts-noto-cjk` installs Noto Sans CJK.
    public static let notoCJKDirectory = "/usr/share/fonts/opentype/noto"

    /// DejaVu Sans and DejaVu Sans Bold alone: exactly what `fonts-dejavu-core` guarantees, so
    /// pictures rendered with it (the golden tests) are the same on every machine.
    public static let dejaVuSans = FontChain(
        regular: ["\(dejaVuDirectory)/DejaVuSans.ttf"], bold: ["\(dejaVuDirectory)/DejaVuSans-Bold.ttf"])

    /// The scripts `fonts-noto-core` has a Noto Sans font for, that people write messages in
    /// today, by ISO 15924 code: `NotoSans<Name>-Regular.ttf`. Latin, Greek and Cyrillic are
    /// DejaVu's.
    public static let notoScripts: [String: String] = [
        "Adlm": "Adlam", "Arab": "Arabic", "Armn": "Armenian", "Bali": "Balinese", "Beng": "Bengali",
        "Cans": "CanadianAboriginal", "Cher": "Cherokee", "Deva": "Devanagari", "Ethi": "Ethiopic", "Geor": "Georgian",
        "Gujr": "Gujarati", "Guru": "Gurmukhi", "Hebr": "Hebrew", "Java": "Javanese", "Khmr": "Khmer", "Knda": "Kannada",
        "Laoo": "Lao", "Mlym": "Malayalam", "Mong": "Mongolian", "Mymr": "Myanmar", "Nkoo": "NKo", "Olck": "OlChiki",
        "Orya": "Oriya", "Sinh": "Sinhala", "Sund": "Sundanese", "Syrc": "Syriac", "Taml": "Tamil", "Telu": "Telugu",
        "Thaa": "Thaana", "Thai": "Thai", "Tfng": "Tifinagh", "Vaii": "Vai", "Yiii": "Yi",
    ]

    /// The scripts Noto Sans CJK draws.
    static let cjkScripts = ["Hani", "Hira", "Kana", "Hang", "Bopo"]

    /// Every Noto script font and Noto Sans CJK, whether installed or not.
    public static var notoScriptFonts: [String: ScriptFonts] {
        var fonts = notoScripts.mapValues { name in
            ScriptFonts(regular: "\(notoDirectory)/NotoSans\(name)-Regular.ttf", bold: "\(notoDirectory)/NotoSans\(name)-Bold.ttf")
        }
        for script in cjkScripts {
            fonts[script] = ScriptFonts(regular: "\(notoCJKDirectory)/NotoSansCJK-Regular.ttc", bold: "\(notoCJKDirectory)/NotoSansCJK-Bold.ttc")
        }
        return fonts
    }

    /// Where `fonts-noto-color-emoji` installs Noto Color Emoji.
    public static let notoColorEmoji = "\(notoDirectory)/NotoColorEmoji.ttf"

    /// Fallback fonts worth trying after the script's, with the Debian package that installs
    /// each: monochrome emoji and symbols first, then Chinese, Japanese and Korean.
    public static let fallbackCandidates = [
        "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",  // fonts-symbola
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  // fonts-droid-fallback
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  // fonts-wqy-microhei
        "/usr/share/fonts/truetype/unifont/unifont.ttf",  // fonts-unifont: every BMP character
    ]

    /// Every font the bootstrap installs, whether present or not: DejaVu, the Noto fonts of every
    /// script, Noto Color Emoji, then Symbola and Droid Sans Fallback. Pictures of text in any
    /// script (the golden tests) use this chain.
    public static let everyScript = FontChain(
        regular: dejaVuSans.regular + fallbackCandidates.prefix(2), bold: dejaVuSans.bold + fallbackCandidates.prefix(2),
        scripts: notoScriptFonts, emoji: notoColorEmoji)

    /// DejaVu Sans followed by whichever fonts are installed: the Noto font of each script,
    /// colour emoji unless `colorEmoji` is false, then the fallbacks. What the wearable uses,
    /// showing as many scripts as the machine has fonts for.
    public static func installed(colorEmoji: Bool = true, fallbacks: [String] = fallbackCandidates) -> FontChain {
        func present(_ path: String) -> Bool { access(path, R_OK) == 0 }
        var scripts: [String: ScriptFonts] = [:]
        for (script, fonts) in notoScriptFonts where present(fonts.regular) {
            scripts[script] = ScriptFonts(regular: fonts.regular, bold: fonts.bold.flatMap { present($0) ? $0 : nil })
        }
        let fallbacks = fallbacks.filter(present)
        return FontChain(
            regular: dejaVuSans.regular + fallbacks, bold: dejaVuSans.bold + fallbacks, scripts: scripts,
            emoji: colorEmoji && present(notoColorEmoji) ? notoColorEmoji : nil)
    }
}
