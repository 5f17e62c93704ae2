/// An in-memory picture that screens are drawn into before being presented on a framebuffer.
///
/// Pixels are stored as `0xRRGGBB` whatever the framebuffer's format, so drawing never depends on
/// the panel. Every drawing call records the area it touched in `dirty`; presenting converts and
/// writes only those areas. Drawing is clipped to `clip`, which is how a scrolling area keeps its
/// text out of the header above it.
public struct Canvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels, row by row, as `0xRRGGBB`.
    public internal(set) var pixels: [UInt32]
    /// The areas drawn since the last `takeDirty()`.
    public internal(set) var dirty = DirtyRegion()
    /// Drawing outside this rectangle is discarded; always within `bounds`.
    public var clip: Rect {
        didSet { clip = clip.intersection(bounds) }
    }

    /// Creates a canvas filled with one colour, all of it dirty.
    public init(width: Int, height: Int, background: Color = .black) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixels = [UInt32](repeating: background.rgb, count: self.width * self.height)
        self.clip = Rect(x: 0, y: 0, width: self.width, height: self.height)
        dirty.add(bounds)
    }

    /// The whole canvas.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The colour of one pixel; black outside the canvas.
    public subscript(x: Int, y: Int) -> Color {
        guard x >= 0, y >= 0, x < width, y < height else { return .black }
        return Color(rgb: pixels[y * width + x])
    }

    /// Returns the dirty areas and starts recording afresh.
    public mutating func takeDirty() -> DirtyRegion {
        defer { dirty.removeAll() }
        return dirty
    }

    /// Marks an area as changed without drawing, e.g. after the framebuffer was cleared by
    /// someone else.
    public mutating func markDirty(_ rect: Rect) {
        dirty.add(rect.intersection(bounds))
    }

    /// Fills a rectangle with a colour.
    public mutating func fill(_ rect: Rect, with color: Color) {
        let area = rect.intersection(clip)
        guard !area.isEmpty else { return }
        dirty.add(area)
        let value = color.rgb
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in area.y..<area.maxY {
                let start = row * width + area.x
                buffer[start..<(start + area.width)].update(repeating: value)
            }
        }
    }

    /// Blends a colour through an 8-bit coverage mask (a glyph, an anti-aliased shape) whose
    /// top-left corner lands at `x`, `y`; 255 is fully covered.
    public mutating func blend(
        coverage: UnsafeBufferPointer<UInt8>, maskWidth: Int, maskHeight: Int, x: Int, y: Int, color: Color
    ) {
        let area = Rect(x: x, y: y, width: maskWidth, height: maskHeight).intersection(clip)
        guard !area.isEmpty, coverage.count >= maskWidth * maskHeight else { return }
        dirty.add(area)
        let width = self.width
        let source = color.rgb
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in area.y..<area.maxY {
                let maskRow = (row - y) * maskWidth - x
                let canvasRow = row * width
                for column in area.x..<area.maxX {
                    let alpha = UInt32(coverage[maskRow + column])
                    if alpha == 0 { continue }
                    let index = canvasRow + column
                    buffer[index] = alpha == 255 ? source : Self.mix(buffer[index], source, alpha: alpha)
                }
            }
        }
    }

    /// Blends a colour into one pixel with coverage 0–255, honouring the clip.
    mutating func blendPixel(x: Int, y: Int, color: UInt32, alpha: UInt32) {
        guard alpha > 0, clip.contains(x: x, y: y) else { return }
        let index = y * width + x
        pixels[index] = alpha >= 255 ? color : Self.mix(pixels[index], color, alpha: alpha)
    }

    /// `background` moved towards `foreground` by `alpha`/255 in each channel, rounded.
    ///
    /// Blending happens on the sRGB values, as most UI toolkits do: text then looks as heavy as
    /// it does elsewhere on the same panel.
    @inline(__always)
    static func mix(_ background: UInt32, _ foreground: UInt32, alpha: UInt32) -> UInt32 {
        let inverse = 255 - alpha
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let value = ((background >> shift) & 0xFF) * inverse + ((foreground >> shift) & 0xFF) * alpha + 128
            return ((value + (value >> 8)) >> 8) << shift  // value / 255, rounded, without a division
        }
        return channel(16) | channel(8) | channel(0)
    }
}
