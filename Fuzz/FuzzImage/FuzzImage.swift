import Foundation
import RelayDisplay
import RelayFuzzing

/// Images from arbitrary bytes, as apps hand them to relay-phone: PNG and JPEG files
/// (`image-path`, rich attachments) through libpng and libjpeg with a pixel limit, and freedesktop `image-data` (the first 8
/// bytes give width, height, row stride and channels; the rest are the pixels). What decodes is
/// reduced as the phone reduces it and must survive a PNG round trip unchanged.
func fuzzImage(_ data: Data) {
    let bytes = Array(data)
    if let image = try? PNGFile.decode(bytes, maxPixels: 1 << 16) {
        check(image)
    }
    if let image = try? JPEGFile.decode(bytes, maxPixels: 1 << 16, fitSide: Int(bytes.last ?? 0)) {
        check(image)
    }
    guard bytes.count >= 8 else { return }
    let raw = bytes.dropFirst(8)
    if let image = RGBImage(
        raw: raw, width: Int(bytes[0]), height: Int(bytes[1]), rowstride: Int(bytes[2]) | Int(bytes[3] & 0x0F) << 8,
        channels: Int(bytes[3] >> 4))
    {
        precondition(image.width == Int(bytes[0]) && image.height == Int(bytes[1]), "raw image of the wrong size")
        check(image)
    }
}

/// The phone's treatment: fit a small square, encode, decode to the same pixels.
private func check(_ image: RGBImage) {
    let thumbnail = image.scaledToFit(maxWidth: 16, maxHeight: 16)
    precondition(thumbnail.width <= 16 && thumbnail.height <= 16, "the thumbnail does not fit")
    precondition(
        image.width == 0 || image.height == 0 || (thumbnail.width > 0 && thumbnail.height > 0), "a picture scaled to nothing")
    guard thumbnail.width > 0, thumbnail.height > 0, let encoded = try? PNGFile.encode(thumbnail) else { return }
    guard let decoded = try? PNGFile.decode(encoded, maxPixels: 1 << 16) else {
        fatalError("an encoded thumbnail does not decode")
    }
    precondition(decoded == thumbnail, "the PNG round trip changed the pixels")
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzImage(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzImage_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzImage_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzImage)) }
    }
#endif
