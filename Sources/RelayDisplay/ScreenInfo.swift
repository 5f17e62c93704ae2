/// One colour channel's position in a pixel (`struct fb_bitfield`).
public struct BitField: Hashable, Sendable, CustomStringConvertible {
    /// The lowest bit of the channel.
    public var offset: UInt32
    /// The number of bits.
    public var length: UInt32
    /// Non-zero when the most significant bit is on the right (never for the formats Relay drives).
    public var msbRight: UInt32

    /// Creates a bit field.
    public init(offset: UInt32, length: UInt32, msbRight: UInt32 = 0) {
        self.offset = offset
        self.length = length
        self.msbRight = msbRight
    }

    /// `11/5`: offset and length.
    public var description: String { "\(offset)/\(length)" + (msbRight == 0 ? "" : " msb-right") }
}

/// The fields of `struct fb_var_screeninfo` (FBIOGET_VSCREENINFO) that decide the layout.
///
/// The kernel struct is 40 `__u32`s on every architecture; the fields are read from it by
/// position, so no C header is needed to decode it.
public struct VariableScreenInfo: Hashable, Sendable {
    /// Visible resolution.
    public var xres: UInt32, yres: UInt32
    /// Virtual resolution (the memory may hold more than one screen for panning).
    public var xresVirtual: UInt32, yresVirtual: UInt32
    /// Offset of the visible area within the virtual one.
    public var xoffset: UInt32, yoffset: UInt32
    /// Bits per pixel.
    public var bitsPerPixel: UInt32
    /// Non-zero for greyscale.
    public var grayscale: UInt32
    /// Channel positions.
    public var red: BitField, green: BitField, blue: BitField, transparency: BitField

    /// Creates screen info from its fields.
    public init(
        xres: UInt32, yres: UInt32, xresVirtual: UInt32? = nil, yresVirtual: UInt32? = nil, xoffset: UInt32 = 0,
        yoffset: UInt32 = 0, bitsPerPixel: UInt32, grayscale: UInt32 = 0, red: BitField, green: BitField,
        blue: BitField, transparency: BitField = BitField(offset: 0, length: 0)
    ) {
        self.xres = xres
        self.yres = yres
        self.xresVirtual = xresVirtual ?? xres
        self.yresVirtual = yresVirtual ?? yres
        self.xoffset = xoffset
        self.yoffset = yoffset
        self.bitsPerPixel = bitsPerPixel
        self.grayscale = grayscale
        self.red = red
        self.green = green
        self.blue = blue
        self.transparency = transparency
    }

    /// The size of the kernel struct: 40 `__u32`s.
    public static let byteCount = 160

    /// Decodes the kernel struct from its bytes in native byte order; `nil` when too short.
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.byteCount else { return nil }
        func word(_ index: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self) }
        func field(_ index: Int) -> BitField { BitField(offset: word(index), length: word(index + 1), msbRight: word(index + 2)) }
        self.init(
            xres: word(0), yres: word(1), xresVirtual: word(2), yresVirtual: word(3), xoffset: word(4),
            yoffset: word(5), bitsPerPixel: word(6), grayscale: word(7), red: field(8), green: field(11),
            blue: field(14), transparency: field(17))
    }
}

/// The fields of `struct fb_fix_screeninfo` (FBIOGET_FSCREENINFO) that decide the layout.
public struct FixedScreenInfo: Hashable, Sendable {
    /// The driver's identification, such as `fb_st7789v`.
    public var id: String
    /// The length of the framebuffer memory in bytes.
    public var memoryLength: UInt32
    /// `FB_TYPE_*`: 0 is packed pixels.
    public var type: UInt32
    /// `FB_VISUAL_*`: 2 is true colour, 4 direct colour.
    public var visual: UInt32
    /// Bytes per row.
    public var lineLength: UInt32

    /// Creates screen info from its fields.
    public init(id: String = "", memoryLength: UInt32, type: UInt32 = 0, visual: UInt32 = 2, lineLength: UInt32) {
        self.id = id
        self.memoryLength = memoryLength
        self.type = type
        self.visual = visual
        self.lineLength = lineLength
    }

    /// The struct's layout for a C `unsigned long` of `wordSize` bytes (8 on 64-bit Linux, 4 on
    /// 32-bit Raspberry Pi OS): `char id[16]; unsigned long smem_start; __u32 smem_len, type,
    /// type_aux, visual; __u16 xpanstep, ypanstep, ywrapstep; __u32 line_length;
    /// unsigned long mmio_start; __u32 mmio_len, accel; __u16 capabilities, reserved[2]`.
    struct Layout {
        let wordSize: Int
        var memoryLength: Int { 16 + wordSize }
        var type: Int { 20 + wordSize }
        var visual: Int { 28 + wordSize }
        var lineLength: Int { 40 + wordSize }
        /// The whole struct, padded to the alignment of `unsigned long`.
        var byteCount: Int {
            let mmioStart = (lineLength + 4 + wordSize - 1) / wordSize * wordSize
            let end = mmioStart + wordSize + 4 + 4 + 2 + 4
            return (end + wordSize - 1) / wordSize * wordSize
        }

        /// The layout of the machine this runs on.
        static let native = Layout(wordSize: MemoryLayout<CUnsignedLong>.size)
    }

    /// The size of the kernel struct on this machine (80 bytes on 64-bit Linux).
    public static var byteCount: Int { Layout.native.byteCount }

    /// Decodes the kernel struct from its bytes in native layout; `nil` when too short.
    public init?(bytes: UnsafeRawBufferPointer) {
        self.init(bytes: bytes, layout: .native)
    }

    init?(bytes: UnsafeRawBufferPointer, layout: Layout) {
        guard bytes.count >= layout.byteCount else { return nil }
        func word(_ offset: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        let idBytes = bytes.prefix(16).prefix { $0 != 0 }
        self.init(
            id: String(decoding: idBytes, as: UTF8.self), memoryLength: word(layout.memoryLength),
            type: word(layout.type), visual: word(layout.visual), lineLength: word(layout.lineLength))
    }
}
