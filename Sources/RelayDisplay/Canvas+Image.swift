extension Canvas {
    /// Copies a picture's pixels with its top-left corner at `x`, `y`, honouring the clip.
    public mutating func draw(_ image: RGBImage, x: Int, y: Int) {
        let area = Rect(x: x, y: y, width: image.width, height: image.height).intersection(clip)
        guard !area.isEmpty else { return }
        dirty.add(area)
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { canvas in
            image.bytes.withUnsafeBufferPointer { source in
                for row in area.y..<area.maxY {
                    var index = ((row - y) * image.width + (area.x - x)) * 3
                    let start = row * width
                    for column in area.x..<area.maxX {
                        canvas[start + column] = UInt32(source[index]) << 16 | UInt32(source[index + 1]) << 8 | UInt32(source[index + 2])
                        index += 3
                    }
                }
            }
        }
    }
}

extension Canvas {
    /// Blends premultiplied `0xAARRGGBB` pixels (a colour emoji) with their top-left corner at
    /// `x`, `y`, honouring the clip: each channel becomes `source + background × (255 − alpha) / 255`.
    public mutating func blend(premultiplied pixels: UnsafeBufferPointer<UInt32>, imageWidth: Int, imageHeight: Int, x: Int, y: Int) {
        let area = Rect(x: x, y: y, width: imageWidth, height: imageHeight).intersection(clip)
        guard !area.isEmpty, pixels.count >= imageWidth * imageHeight else { return }
        dirty.add(area)
        let width = self.width
        self.pixels.withUnsafeMutableBufferPointer { canvas in
            for row in area.y..<area.maxY {
                let sourceRow = (row - y) * imageWidth - x
                let canvasRow = row * width
                for column in area.x..<area.maxX {
                    let source = pixels[sourceRow + column]
                    let alpha = source >> 24
                    if alpha == 0 { continue }
                    let index = canvasRow + column
                    if alpha == 255 {
                        canvas[index] = source & 0xFF_FFFF
                        continue
                    }
                    let background = canvas[index], inverse = 255 - alpha
                    @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
                        let value = ((background >> shift) & 0xFF) * inverse + 128
                        return min(255, ((source >> shift) & 0xFF) + ((value + (value >> 8)) >> 8)) << shift
                    }
                    canvas[index] = channel(16) | channel(8) | channel(0)
                }
            }
        }
    }
}
