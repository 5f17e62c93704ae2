import Foundation
import RelayDisplay
import RelayFuzzing
import RelayText
import Synchronization

/// The wearable's text path on arbitrary Unicode, as a peer's notification brings it: laid out,
/// cut to one line and drawn with every font the bootstrap installs (HarfBuzz, FriBidi, ICU,
/// FreeType, colour emoji). The first byte picks how the rest becomes text: as UTF-8 (invalid
/// sequences replaced), or three bytes a scalar anywhere in Unicode (surrogates skipped), so
/// rare scripts, marks, controls and unassigned code points all come.
func fuzzText(_ data: Data) {
    guard let mode = data.first else { return }
    let bytes = data.dropFirst()
    let text: String
    if mode & 1 == 0 {
        text = String(decoding: bytes, as: UTF8.self)
    } else {
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index + 2 < bytes.endIndex {
            let value = (UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])) % 0x11_0000
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            index += 3
        }
        text = String(scalars)
    }
    let width = 20 + Int(mode >> 1) % 220
    typesetter.withLock { typesetter in
        let style = TextStyle(size: 8 + Int(mode) % 24, weight: mode & 0x40 == 0 ? .regular : .bold)
        let layout = typesetter.layout(text, style: style, maxWidth: width)
        // Every character is on a line, in order; only the spaces and line breaks lines end at go.
        let kept = layout.lines.flatMap { Array($0.text) }.filter { !$0.isWhitespace }
        precondition(kept == Array(text).filter { !$0.isWhitespace }, "layout lost or moved characters")
        for line in layout.lines where line.width > width {
            // Only a line of one cluster wider than the screen may overflow it.
            precondition(line.text.count == 1, "a line of \(line.text.count) characters is \(line.width) wide, more than \(width)")
        }
        let cut = typesetter.layout(text, style: style, maxWidth: width, maxLines: 2)
        precondition(cut.lines.count <= 2, "more lines than asked for")
        let row = typesetter.line(text, style: style, maxWidth: width)
        let shown = row.isTruncated ? String(row.text.dropLast()) : row.text
        precondition(text.hasPrefix(shown), "a truncated line is not the text's beginning")
        var canvas = Canvas(width: 240, height: 240)
        typesetter.draw(layout, style: style, x: 0, top: -8, width: width, color: .white, into: &canvas)
        typesetter.draw(row, style: style, x: 0, baseline: 200, width: width, color: .white, into: &canvas)
    }
}

/// One typesetter for every input (opening the fonts per input would be most of the work).
private let typesetter: Mutex<Typesetter> = {
    do {
        return Mutex(Typesetter(typeface: try Typeface(.everyScript)))
    } catch {
        fatalError("fuzz text: \(error); install the fonts scripts/bootstrap.sh names")
    }
}()

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzText(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzText_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzText_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzText)) }
    }
#endif
