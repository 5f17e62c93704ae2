import CPNG
import Glibc
import RelaySystem

/// Reads and writes PNG files with libpng's simplified API, which reports errors through the
/// image struct instead of `longjmp` (which Swift cannot survive).
public enum PNGFile {
    /// Why a PNG could not be read or written.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// libpng's message, or what went wrong around it.
        public var message: String

        /// `cannot read /tmp/x.png: Not a PNG file`.
        public var description: String { "PNG \(path): \(message)" }
    }

    /// Writes an image as an 8-bit RGB PNG. The file is written beside its destination and
    /// renamed into place, so a reader (or a screenshot viewer) never sees half a picture.
    public static func write(_ image: RGBImage, to path: String) throws(PNGFile.Error) {
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        info.width = UInt32(image.width)
        info.height = UInt32(image.height)
        info.format = UInt32(PNG_FORMAT_RGB)
        let temporary = "\(path).\(getpid()).tmp"
        let ok = image.bytes.withUnsafeBytes { bytes in
            png_image_write_to_file(&info, temporary, 0, bytes.baseAddress, Int32(image.width * 3), nil)
        }
        guard ok != 0 else {
            let message = Self.message(of: &info)
            png_image_free(&info)
            unlink(temporary)
            throw Error(path: path, message: message)
        }
        if rename(temporary, path) != 0 {
            let error = SystemError(call: "rename(\(temporary), \(path))", code: errno)
            unlink(temporary)
            throw Error(path: path, message: error.description)
        }
    }

    /// Reads a PNG of any colour type and depth, converted to 8-bit RGB (alpha composed on black).
    public static func read(from path: String) throws(PNGFile.Error) -> RGBImage {
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&info, path) != 0 else {
            let message = Self.message(of: &info)
            png_image_free(&info)
            throw Error(path: path, message: message)
        }
        info.format = UInt32(PNG_FORMAT_RGB)
        let width = Int(info.width), height = Int(info.height)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let ok = bytes.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&info, nil, buffer.baseAddress, Int32(width * 3), nil)
        }
        guard ok != 0 else {
            let message = Self.message(of: &info)
            png_image_free(&info)
            throw Error(path: path, message: message)
        }
        return RGBImage(width: width, height: height, exactBytes: bytes)
    }

    /// The message libpng left in the struct's fixed-size buffer.
    private static func message(of info: inout png_image) -> String {
        withUnsafeBytes(of: &info.message) { raw in
            let text = raw.prefix { $0 != 0 }
            return text.isEmpty ? "libpng failed without a message" : String(decoding: text, as: UTF8.self)
        }
    }
}
