extension RGBImage {
    /// An image from raw rows of 8-bit samples, as a freedesktop notification's `image-data`
    /// hint carries them: `channels` is 3 (RGB) or 4 (RGBA, alpha composed on black), and each
    /// row starts `rowstride` bytes after the previous one.
    ///
    /// `nil` when the description does not fit the data: sizes not positive, another channel
    /// count, a row stride shorter than a row, or fewer bytes than the rows need. The last row
    /// need not be padded to the stride (GdkPixbuf leaves it short). The sender is not trusted:
    /// no value makes this trap, and nothing is allocated beyond what the data could fill.
    public init?(raw data: some Collection<UInt8>, width: Int, height: Int, rowstride: Int, channels: Int) {
        guard width > 0, height > 0, channels == 3 || channels == 4 else { return nil }
        let (rowBytes, wideRow) = width.multipliedReportingOverflow(by: channels)
        guard !wideRow, rowstride >= rowBytes else { return nil }
        let (padded, tallImage) = rowstride.multipliedReportingOverflow(by: height - 1)
        let (needed, tooMuch) = padded.addingReportingOverflow(rowBytes)
        guard !tallImage, !tooMuch, data.count >= needed else { return nil }
        let converted =
            data.withContiguousStorageIfAvailable {
                Self.packed(UnsafeRawBufferPointer($0), width: width, height: height, rowstride: rowstride, channels: channels)
            }
            ?? Array(data).withUnsafeBytes {
                Self.packed($0, width: width, height: height, rowstride: rowstride, channels: channels)
            }
        self.init(width: width, height: height, exactBytes: converted)
    }

    /// Rows packed as RGB triples; the caller has checked that `source` holds every row.
    private static func packed(
        _ source: UnsafeRawBufferPointer, width: Int, height: Int, rowstride: Int, channels: Int
    ) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        bytes.withUnsafeMutableBufferPointer { output in
            var out = 0
            for row in 0..<height {
                var index = row * rowstride
                for _ in 0..<width {
                    if channels == 4 {
                        let alpha = UInt16(source[index + 3])
                        // c × a / 255, rounded: compositing on black.
                        for channel in 0..<3 {
                            output[out + channel] = UInt8((UInt16(source[index + channel]) * alpha + 127) / 255)
                        }
                    } else {
                        output[out] = source[index]
                        output[out + 1] = source[index + 1]
                        output[out + 2] = source[index + 2]
                    }
                    out += 3
                    index += channels
                }
            }
        }
        return bytes
    }
}
