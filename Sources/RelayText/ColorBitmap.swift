/// A colour glyph as FreeType renders it (premultiplied BGRA, a row every `pitch` bytes), and its
/// reduction to a smaller size by area averaging: each target pixel is the mean of the source
/// area it covers, weighted by how much of each source pixel falls inside it, so a 109-pixel
/// emoji stays smooth at 16 pixels instead of losing the strokes a nearest-pixel pick skips.
struct ColorBitmap {
    let width: Int
    let height: Int
    let pitch: Int
    let bgra: UnsafeMutablePointer<UInt8>

    /// The reduction: pixels as premultiplied `0xAARRGGBB`, and their alpha alone.
    struct Reduced {
        let width: Int
        let height: Int
        let pixels: [UInt32]
        let alpha: [UInt8]
    }

    /// Shrinks by `scale` (at most 1).
    func shrunk(by scale: Double) -> Reduced {
        let targetWidth = max(1, Int((Double(width) * scale).rounded()))
        let targetHeight = max(1, Int((Double(height) * scale).rounded()))
        let columns = Self.spans(target: targetWidth, source: width)
        let rows = Self.spans(target: targetHeight, source: height)
        var pixels = [UInt32](repeating: 0, count: targetWidth * targetHeight)
        var alpha = [UInt8](repeating: 0, count: targetWidth * targetHeight)
        for (ty, rowSpan) in rows.enumerated() {
            for (tx, columnSpan) in columns.enumerated() {
                var sums: (b: Double, g: Double, r: Double, a: Double) = (0, 0, 0, 0)
                var total = 0.0
                for (sy, wy) in rowSpan {
                    // A negative pitch means the rows are stored bottom-up.
                    let row = bgra + (pitch >= 0 ? sy * pitch : (height - 1 - sy) * -pitch)
                    for (sx, wx) in columnSpan {
                        let weight = wx * wy
                        let pixel = row + sx * 4
                        sums.b += Double(pixel[0]) * weight
                        sums.g += Double(pixel[1]) * weight
                        sums.r += Double(pixel[2]) * weight
                        sums.a += Double(pixel[3]) * weight
                        total += weight
                    }
                }
                guard total > 0 else { continue }
                func channel(_ value: Double) -> UInt32 { UInt32(min(255, max(0, (value / total).rounded()))) }
                let a = channel(sums.a)
                pixels[ty * targetWidth + tx] = a << 24 | channel(sums.r) << 16 | channel(sums.g) << 8 | channel(sums.b)
                alpha[ty * targetWidth + tx] = UInt8(a)
            }
        }
        return Reduced(width: targetWidth, height: targetHeight, pixels: pixels, alpha: alpha)
    }

    /// For each of `target` pixels along an axis, the `source` pixels it covers and by how much
    /// (a fraction of one source pixel).
    private static func spans(target: Int, source: Int) -> [[(Int, Double)]] {
        let step = Double(source) / Double(target)
        return (0..<target).map { index in
            let start = Double(index) * step, end = min(Double(source), start + step)
            var covered: [(Int, Double)] = []
            var pixel = Int(start)
            while Double(pixel) < end, pixel < source {
                let overlap = min(end, Double(pixel + 1)) - max(start, Double(pixel))
                if overlap > 0 { covered.append((pixel, overlap)) }
                pixel += 1
            }
            return covered
        }
    }
}
