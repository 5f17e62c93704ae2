/// The pixel layouts Relay drives: what small SPI panels and desktop framebuffers use.
public enum PixelFormat: String, Hashable, Sendable, CaseIterable {
    /// 16 bits: red in bits 11–15, green 5–10, blue 0–4, stored little-endian (fbtft panels).
    case rgb565
    /// 32 bits: blue in the lowest byte, then green, then red, the top byte unused.
    case xrgb8888

    /// Bytes per pixel in memory.
    public var bytesPerPixel: Int {
        switch self {
        case .rgb565: 2
        case .xrgb8888: 4
        }
    }

    /// Converts `0xRRGGBB` to this format's pixel value (in the low bits).
    @inline(__always)
    func encode(_ rgb: UInt32) -> UInt32 {
        switch self {
        case .rgb565:
            return (rgb >> 8) & 0xF800 | (rgb >> 5) & 0x07E0 | (rgb >> 3) & 0x001F
        case .xrgb8888:
            return rgb & 0x00FF_FFFF
        }
    }

    /// Converts a pixel value in this format back to `0xRRGGBB`; RGB565 channels are widened
    /// by repeating their top bits, so white stays white.
    @inline(__always)
    func decode(_ pixel: UInt32) -> UInt32 {
        switch self {
        case .rgb565:
            let red = (pixel >> 11) & 0x1F, green = (pixel >> 5) & 0x3F, blue = pixel & 0x1F
            let red8 = red << 3 | red >> 2, green8 = green << 2 | green >> 4, blue8 = blue << 3 | blue >> 2
            return red8 << 16 | green8 << 8 | blue8
        case .xrgb8888:
            return pixel & 0x00FF_FFFF
        }
    }
}
