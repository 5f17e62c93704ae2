extension RGBImage {
    /// The image made to fit within `maxWidth` × `maxHeight`, its aspect ratio kept; never
    /// larger than it is (an image that fits is returned as it is). Downscaling averages every
    /// source pixel's area, so a photo's fine detail turns into its mean colour instead of
    /// aliasing into noise.
    public func scaledToFit(maxWidth: Int, maxHeight: Int) -> RGBImage {
        guard width > maxWidth || height > maxHeight else { return self }
        let size = Self.fittedSize(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
        return resized(width: size.width, height: size.height)
    }

    /// The size of a `width` × `height` picture scaled to fit within `maxWidth` × `maxHeight`
    /// with its aspect ratio kept, magnified at most `maxScale` times; at least 1×1 for a
    /// picture that has pixels, 0×0 for one that has none.
    ///
    /// Computed in integers, so a layout and a renderer asking the same question always get the
    /// same answer.
    public static func fittedSize(
        width: Int, height: Int, maxWidth: Int, maxHeight: Int, maxScale: Int = 1
    ) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (0, 0) }
        let maxWidth = max(1, maxWidth), maxHeight = max(1, maxHeight)
        // The scale is the smallest of maxScale/1, maxWidth/width and maxHeight/height, kept as
        // a fraction and compared by cross-multiplying.
        var numerator = max(1, maxScale), denominator = 1
        if maxWidth * denominator < numerator * width { (numerator, denominator) = (maxWidth, width) }
        if maxHeight * denominator < numerator * height { (numerator, denominator) = (maxHeight, height) }
        func scaled(_ length: Int) -> Int { (2 * length * numerator + denominator) / (2 * denominator) }
        return (min(max(1, scaled(width)), maxWidth), min(max(1, scaled(height)), maxHeight))
    }

    /// The image resampled to `newWidth` × `newHeight` by area averaging (a box filter): each
    /// new pixel is the mean of the source area it covers, weighted by how much of each source
    /// pixel falls inside it. Enlarging repeats pixels (blending at their edges). Sizes below
    /// zero count as zero; an empty source gives a black picture of the size asked for.
    public func resized(width newWidth: Int, height newHeight: Int) -> RGBImage {
        let newWidth = max(0, newWidth), newHeight = max(0, newHeight)
        if newWidth == width, newHeight == height { return self }
        guard width > 0, height > 0, newWidth > 0, newHeight > 0 else {
            return RGBImage(width: newWidth, height: newHeight, exactBytes: [UInt8](repeating: 0, count: newWidth * newHeight * 3))
        }
        let columns = BoxSpans(source: width, destination: newWidth)
        let rows = BoxSpans(source: height, destination: newHeight)
        // Every new pixel's weights add up to width × height (see BoxSpans).
        let total = UInt64(width) * UInt64(height)
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        // One source row filtered horizontally, kept because neighbouring new rows share the
        // source row at their boundary.
        var filtered = [UInt64](repeating: 0, count: newWidth * 3)
        var filteredRow = -1
        var sums = [UInt64](repeating: 0, count: newWidth * 3)
        let rowLength = width * 3, newRowLength = newWidth * 3
        bytes.withUnsafeBufferPointer { source in
            filtered.withUnsafeMutableBufferPointer { filtered in
                sums.withUnsafeMutableBufferPointer { sums in
                    output.withUnsafeMutableBufferPointer { output in
                        for y in 0..<newHeight {
                            sums.update(repeating: 0)
                            var sourceRow = rows.first[y]
                            for spanIndex in rows.offsets[y]..<rows.offsets[y + 1] {
                                if sourceRow != filteredRow {
                                    columns.filter(row: source.extracting((sourceRow * rowLength)..<((sourceRow + 1) * rowLength)),
                                                   into: filtered)
                                    filteredRow = sourceRow
                                }
                                let weight = rows.weights[spanIndex]
                                for index in 0..<newRowLength { sums[index] &+= weight &* filtered[index] }
                                sourceRow += 1
                            }
                            let base = y * newRowLength
                            for index in 0..<newRowLength {
                                output[base + index] = UInt8(truncatingIfNeeded: (sums[index] + total / 2) / total)
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(width: newWidth, height: newHeight, exactBytes: output)
    }
}

/// Which source pixels along one axis each new pixel covers, and by how much.
///
/// Measured in units of 1/`destination` of a source pixel, source pixel `j` spans
/// `[j·destination, (j+1)·destination)` and new pixel `i` spans `[i·source, (i+1)·source)`; the
/// overlaps are whole numbers and each new pixel's add up to `source`. Integer weights keep
/// the result exact and the same on every machine, which golden pictures need.
struct BoxSpans {
    /// The first source pixel each new pixel covers.
    var first: [Int]
    /// Where each new pixel's weights start in `weights`; one more entry than new pixels.
    var offsets: [Int]
    /// The overlaps, new pixel by new pixel, source pixel by source pixel.
    var weights: [UInt64]

    init(source: Int, destination: Int) {
        first = []
        first.reserveCapacity(destination)
        offsets = [0]
        offsets.reserveCapacity(destination + 1)
        weights = []
        weights.reserveCapacity(source + destination)
        for pixel in 0..<destination {
            let start = pixel * source, end = start + source
            var covered = start / destination
            first.append(covered)
            while covered * destination < end {
                let overlap = min((covered + 1) * destination, end) - max(covered * destination, start)
                weights.append(UInt64(overlap))
                covered += 1
            }
            offsets.append(weights.count)
        }
    }

    /// One row of RGB triples filtered along this axis: each new pixel's channels are the
    /// weighted sums of the source pixels it covers.
    func filter(row source: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt64>) {
        weights.withUnsafeBufferPointer { weights in
            for pixel in 0..<first.count {
                var red: UInt64 = 0, green: UInt64 = 0, blue: UInt64 = 0
                var index = first[pixel] * 3
                for spanIndex in offsets[pixel]..<offsets[pixel + 1] {
                    let weight = weights[spanIndex]
                    red &+= weight &* UInt64(source[index])
                    green &+= weight &* UInt64(source[index + 1])
                    blue &+= weight &* UInt64(source[index + 2])
                    index += 3
                }
                output[pixel * 3] = red
                output[pixel * 3 + 1] = green
                output[pixel * 3 + 2] = blue
            }
        }
    }
}
