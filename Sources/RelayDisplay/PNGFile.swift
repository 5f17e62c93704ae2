import CPNG
import Glibc
import RelaySystem

/// Reads and writes PNG files with libpng's simplified API, which reports errors through the
/// image struct instead of `longjmp` (which Swift cannot survive).
public enum PNGFile {
    /// The most pixels `read(from:)` accepts unless told otherwise: a 40-megapixel photo, 120 MB
    /// as RGB. A picture's header can claim any size, so the limit is checked before the pixel
    /// buffer is allocated.
    public static let defaultMaxPixels = 40_000_000

    /// Writes an image as an 8-bit RGB PNG, readable by its owner only (a screenshot shows
    /// notifications). The file is written beside its destination under a name nobody can
    /// guess, created anew (never through a link someone planted) and renamed into place, so a
    /// reader (or a screenshot viewer) never sees half a picture.
    public static func write(_ image: RGBImage, to path: String) throws(PNGFile.Error) {
        let bytes = try encode(image)
        let temporary = "\(path).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
        do throws(SystemError) {
            let descriptor = try SystemError.retrying("open(\(temporary))") {
                open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
            defer { close(descriptor) }
            var written = 0
            while written < bytes.count {
                written += try bytes.withUnsafeBytes { raw in
                    Result { () throws(SystemError) in
                        try SystemError.retrying("write(\(temporary))") {
                            Glibc.write(descriptor, raw.baseAddress?.advanced(by: written), raw.count - written)
                        }
                    }
                }.get()
            }
            _ = try SystemError.retrying("rename(\(temporary), \(path))") { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw Error(path: path, kind: .unwritable, message: error.description)
        }
    }

    /// Reads a PNG of any colour type and depth, converted to 8-bit RGB (alpha composed on
    /// black); a picture of more than `maxPixels` pixels is refused before its pixels are read.
    public static func read(from path: String, maxPixels: Int = defaultMaxPixels) throws(PNGFile.Error) -> RGBImage {
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&info, path) != 0 else {
            throw Self.failure(&info, path: path)
        }
        return try finishReading(&info, path: path, maxPixels: maxPixels).get()
    }

    /// The size a PNG file's header declares, without reading its pixels.
    public static func size(ofFile path: String) throws(PNGFile.Error) -> (width: Int, height: Int) {
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&info, path) != 0 else {
            throw Self.failure(&info, path: path)
        }
        let size = (width: Int(info.width), height: Int(info.height))
        png_image_free(&info)
        return size
    }

    /// Reads the pixels of a picture whose header `info` holds, as 8-bit RGB, and frees `info`.
    ///
    /// The size is checked first: libpng would otherwise happily decode a 60000×60000 bomb of
    /// a few kilobytes into the buffer we allocate for it.
    static func finishReading(_ info: inout png_image, path: String, maxPixels: Int) -> Result<RGBImage, Error> {
        let width = Int(info.width), height = Int(info.height)
        // Both are at most 2³¹ (PNG's limit), so the product cannot overflow a 64-bit Int.
        guard width * height <= maxPixels else {
            png_image_free(&info)
            return .failure(.tooLarge(path: path, width: width, height: height, maxPixels: maxPixels))
        }
        info.format = UInt32(PNG_FORMAT_RGB)
        guard let rowStride = Int32(exactly: width * 3) else {
            png_image_free(&info)
            return .failure(Error(path: path, kind: .unreadable, message: "the picture is \(width) pixels wide, too wide to read"))
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let ok = bytes.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&info, nil, buffer.baseAddress, rowStride, nil)
        }
        guard ok != 0 else { return .failure(Self.failure(&info, path: path)) }
        return .success(RGBImage(width: width, height: height, exactBytes: bytes))
    }

    /// A libpng struct describing `image` as 8-bit RGB, for writing.
    static func header(of image: RGBImage) -> png_image {
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        info.width = UInt32(clamping: image.width)
        info.height = UInt32(clamping: image.height)
        info.format = UInt32(PNG_FORMAT_RGB)
        return info
    }

    /// The error libpng reported in `info`, which is freed.
    static func failure(_ info: inout png_image, path: String) -> Error {
        let message = Self.message(of: &info)
        png_image_free(&info)
        return Error(path: path, kind: .unreadable, message: message)
    }

    /// The message libpng left in the struct's fixed-size buffer.
    static func message(of info: inout png_image) -> String {
        withUnsafeBytes(of: &info.message) { raw in
            let text = raw.prefix { $0 != 0 }
            return text.isEmpty ? "libpng failed without a message" : String(decoding: text, as: UTF8.self)
        }
    }
}
