/// Where a framebuffer's visible pixels are in its memory: size, format and row stride.
public struct FramebufferGeometry: Hashable, Sendable, CustomStringConvertible {
    /// Visible width in pixels.
    public var width: Int
    /// Visible height in pixels.
    public var height: Int
    /// The pixel layout.
    public var format: PixelFormat
    /// Bytes from one row to the next (fbdev's `line_length`), at least `width × bytesPerPixel`;
    /// drivers pad rows, so it is never computed from the width.
    public var stride: Int
    /// Bytes from the start of the mapping to the first visible pixel (fbdev's panning offsets).
    public var offset: Int

    /// Creates a geometry; `stride` defaults to unpadded rows.
    public init(width: Int, height: Int, format: PixelFormat, stride: Int? = nil, offset: Int = 0) {
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride ?? width * format.bytesPerPixel
        self.offset = offset
    }

    /// The bytes a mapping must have to hold every visible pixel.
    public var requiredLength: Int {
        height <= 0 ? offset : offset + (height - 1) * stride + width * format.bytesPerPixel
    }

    /// Whether the numbers describe a usable framebuffer.
    public func validate() throws(FramebufferError) {
        guard width > 0, height > 0, offset >= 0, stride >= width * format.bytesPerPixel else {
            throw .invalidGeometry(self)
        }
    }

    /// `240×240 rgb565, stride 480`.
    public var description: String {
        "\(width)×\(height) \(format.rawValue), stride \(stride)" + (offset == 0 ? "" : ", offset \(offset)")
    }
}
