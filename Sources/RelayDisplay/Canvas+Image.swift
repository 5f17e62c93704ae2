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
