import CPNG

extension PNGFile {
    /// Reads a PNG held in memory (an attachment received over the link), converted to 8-bit RGB
    /// with alpha composed on black. A picture of more than `maxPixels` pixels is refused before
    /// its pixel buffer is allocated; truncated or damaged data is an error, never a crash.
    public static func decode(_ data: some Collection<UInt8>, maxPixels: Int) throws(PNGFile.Error) -> RGBImage {
        let result =
            data.withContiguousStorageIfAvailable { decode(UnsafeRawBufferPointer($0), maxPixels: maxPixels) }
            ?? Array(data).withUnsafeBytes { decode($0, maxPixels: maxPixels) }
        return try result.get()
    }

    /// Encodes an image as an 8-bit RGB PNG. Equal images give equal bytes: libpng's simplified
    /// writer adds no time stamp.
    public static func encode(_ image: RGBImage) throws(PNGFile.Error) -> [UInt8] {
        guard let rowStride = Int32(exactly: image.width * 3) else {
            throw Error(path: "", kind: .unwritable, message: "the picture is \(image.width) pixels wide, too wide for libpng")
        }
        var info = header(of: image)
        // libpng compresses once to learn the size, then again into a buffer of that size; it
        // frees its state after each call, and `info` must stay as it is between them.
        var size = 0
        let measured = image.bytes.withUnsafeBytes { pixels in
            png_image_write_to_memory(&info, nil, &size, 0, pixels.baseAddress, rowStride, nil)
        }
        guard measured != 0, size > 0 else { throw writeFailure(&info) }
        var encoded = [UInt8](repeating: 0, count: size)
        var written = size
        let ok = encoded.withUnsafeMutableBytes { memory in
            image.bytes.withUnsafeBytes { pixels in
                png_image_write_to_memory(&info, memory.baseAddress, &written, 0, pixels.baseAddress, rowStride, nil)
            }
        }
        guard ok != 0 else { throw writeFailure(&info) }
        encoded.removeLast(size - min(written, size))
        return encoded
    }

    /// Decodes from contiguous bytes, which libpng reads until `png_image_finish_read` returns.
    private static func decode(_ buffer: UnsafeRawBufferPointer, maxPixels: Int) -> Result<RGBImage, Error> {
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            return .failure(Error(path: "", kind: .unreadable, message: "no data: an empty file is not a picture"))
        }
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&info, base, buffer.count) != 0 else {
            return .failure(failure(&info, path: ""))
        }
        return finishReading(&info, path: "", maxPixels: maxPixels)
    }

    private static func writeFailure(_ info: inout png_image) -> Error {
        var error = failure(&info, path: "")
        error.kind = .unwritable
        return error
    }
}
