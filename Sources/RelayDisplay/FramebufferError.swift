public import RelaySystem
/// Why a framebuffer cannot be opened or used.
public enum FramebufferError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call failed.
    case system(SystemError)
    /// The device could not be opened: missing, or not the agent's to open.
    case cannotOpen(DeviceError)
    /// A path under /dev that is not a device (a regular file an earlier run or a typo made):
    /// Relay draws only on a device there, and creates nothing.
    case notADevice(path: String)
    /// The device's pixel layout is neither RGB565 nor XRGB8888.
    case unsupportedFormat(UnsupportedFormat)
    /// The device is not a packed-pixel true-colour framebuffer (planar, palette, text mode).
    case unsupportedType(type: UInt32, visual: UInt32)
    /// The numbers do not describe a usable framebuffer.
    case invalidGeometry(FramebufferGeometry)
    /// The memory is smaller than the geometry needs; `name` is the file path or the driver's name.
    case tooSmall(name: String, length: Int, required: Int)

    /// A pixel layout Relay does not drive, with what the driver reported.
    public struct UnsupportedFormat: Hashable, Sendable {
        /// `bits_per_pixel`.
        public var bitsPerPixel: UInt32
        /// The red, green, blue and transparency channels.
        public var red: BitField, green: BitField, blue: BitField, transparency: BitField
    }

    /// A readable explanation naming the numbers involved.
    public var description: String {
        switch self {
        case .system(let error):
            return error.description
        case .cannotOpen(let error):
            return error.description
        case .notADevice(let path):
            return "\(path) is not a framebuffer device but a \(path.hasPrefix("/dev/") ? "file under /dev" : "file"): "
                + "relay-wearable draws on a panel's device there and creates nothing; remove the file (sudo rm \(path)) "
                + "and name the panel's device (ls /dev/fb*, cat /sys/class/graphics/fb*/name)"
        case .unsupportedFormat(let f):
            return "unsupported framebuffer format: \(f.bitsPerPixel) bits per pixel, red \(f.red), green \(f.green), "
                + "blue \(f.blue), transparency \(f.transparency) (offset/length); Relay drives RGB565 "
                + "(red 11/5, green 5/6, blue 0/5) and XRGB8888 (red 16/8, green 8/8, blue 0/8)"
        case .unsupportedType(let type, let visual):
            return "unsupported framebuffer type \(type), visual \(visual): Relay needs packed pixels (0) in true colour (2)"
        case .invalidGeometry(let geometry):
            return "invalid framebuffer geometry: \(geometry)"
        case .tooSmall(let name, let length, let required):
            return "\(name) has \(length) bytes of pixel memory; the geometry needs \(required)"
        }
    }
}
