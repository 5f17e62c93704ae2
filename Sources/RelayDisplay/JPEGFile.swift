import CRelayShim
import Glibc

/// Reads JPEG images (photos apps attach) with libjpeg, through a C shim that keeps libjpeg's
/// longjmp error handling out of Swift.
public enum JPEGFile {
    /// Why a JPEG could not be read.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// libjpeg's message, or the limit that refused the image.
        public var message: String

        /// `JPEG data: Not a JPEG file: starts with 0x89 0x50`.
        public var description: String { "JPEG data: \(message)" }
    }

    /// Whether the bytes start like a JPEG file (SOI marker, then another marker).
    public static func looksLikeJPEG(_ data: some Collection<UInt8>) -> Bool {
        Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF]
    }

    /// Decodes a JPEG held in memory to 8-bit RGB. An image of more than `maxPixels` pixels is
    /// refused before any pixel buffer exists. With `fitSide`, libjpeg reduces the image by 1/2,
    /// 1/4 or 1/8 while its longer side stays at least `fitSide` (cheaper than decoding it whole
    /// and scaling afterwards).
    public static func decode(_ data: some Collection<UInt8>, maxPixels: Int, fitSide: Int = 0) throws(JPEGFile.Error) -> RGBImage {
        let bytes = Array(data)
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = bytes.withUnsafeBufferPointer { buffer in
            relay_jpeg_decode(
                buffer.baseAddress, buffer.count, UInt64(max(0, maxPixels)), Int32(clamping: fitSide), &pixels, &width, &height,
                &message, message.count)
        }
        defer { free(pixels) }
        switch status {
        case 0:
            guard let pixels, width > 0, height > 0 else { throw Error(message: "libjpeg returned no pixels") }
            let count = Int(width) * Int(height) * 3
            guard let image = RGBImage(width: Int(width), height: Int(height), bytes: Array(UnsafeBufferPointer(start: pixels, count: count)))
            else { throw Error(message: "libjpeg returned pixels of the wrong size") }
            return image
        case -2:
            throw Error(message: "\(width) × \(height) pixels is more than the \(maxPixels) allowed")
        case -3:
            throw Error(message: "out of memory for the pixels")
        default:
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Error(message: text.isEmpty ? "libjpeg failed without a message" : text)
        }
    }
}
