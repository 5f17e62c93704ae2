/// A picture as 8-bit RGB triples, row by row: what PNG files hold and goldens compare.
public struct RGBImage: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 3` bytes: red, green, blue per pixel.
    public var bytes: [UInt8]

    /// Creates an image from its bytes; `nil` when their count does not match the size.
    public init?(width: Int, height: Int, bytes: [UInt8]) {
        guard width >= 0, height >= 0, bytes.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// Creates an image whose byte count the caller has computed from the size.
    init(width: Int, height: Int, exactBytes bytes: [UInt8]) {
        precondition(bytes.count == width * height * 3)
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// The colour of one pixel; black outside the image.
    public subscript(x: Int, y: Int) -> Color {
        guard x >= 0, y >= 0, x < width, y < height else { return .black }
        let index = (y * width + x) * 3
        return Color(red: bytes[index], green: bytes[index + 1], blue: bytes[index + 2])
    }

    /// The pixels that differ from another image of the same size, counted; `nil` when the
    /// sizes differ.
    public func differingPixelCount(from other: RGBImage) -> Int? {
        guard width == other.width, height == other.height else { return nil }
        var count = 0
        for pixel in 0..<(width * height) {
            let index = pixel * 3
            if bytes[index] != other.bytes[index] || bytes[index + 1] != other.bytes[index + 1]
                || bytes[index + 2] != other.bytes[index + 2]
            {
                count += 1
            }
        }
        return count
    }
}

extension RGBImage {
    /// The canvas as it is, at full 8-bit precision.
    public init(_ canvas: Canvas) {
        var bytes = [UInt8](repeating: 0, count: canvas.width * canvas.height * 3)
        for (index, pixel) in canvas.pixels.enumerated() {
            bytes[index * 3] = UInt8(truncatingIfNeeded: pixel >> 16)
            bytes[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            bytes[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel)
        }
        self.init(width: canvas.width, height: canvas.height, exactBytes: bytes)
    }
}

extension Framebuffer {
    /// What is on screen, read back from the framebuffer memory and widened to 8-bit RGB: a
    /// screenshot shows exactly what the panel got, RGB565 rounding included.
    public func snapshot() -> RGBImage {
        let width = geometry.width, height = geometry.height
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let rgb = geometry.format.decode(load(at: address(x: x, y: y)))
                let index = (y * width + x) * 3
                bytes[index] = UInt8(truncatingIfNeeded: rgb >> 16)
                bytes[index + 1] = UInt8(truncatingIfNeeded: rgb >> 8)
                bytes[index + 2] = UInt8(truncatingIfNeeded: rgb)
            }
        }
        return RGBImage(width: width, height: height, exactBytes: bytes)
    }
}
