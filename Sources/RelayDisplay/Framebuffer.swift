import CRelayShim
import Glibc
import RelaySystem

/// Pixel memory the screen shows: a Linux framebuffer device (`/dev/fbN`) or a file with the
/// same byte layout (loopback mode), mapped into memory.
///
/// Not `Sendable`: it owns a mapping that is written without locks, so exactly one owner (the
/// wearable's display loop) may use it. The mapping and the descriptor are released on deinit.
public final class Framebuffer {
    /// Where the visible pixels are and how they are laid out.
    public let geometry: FramebufferGeometry
    /// The device or file path.
    public let path: String
    /// The driver's name for a device (`fb_st7789v`), empty for a file.
    public let driverName: String

    let base: UnsafeMutableRawPointer
    private let length: Int
    private let descriptor: Int32

    /// Maps `length` bytes of an open descriptor, which it then owns (and closes on failure).
    private init(
        path: String, driverName: String, geometry: FramebufferGeometry, descriptor: Int32, length: Int, isPanel: Bool
    ) throws(FramebufferError) {
        // mmap does not fail with EINTR, so it needs no retry loop; errno is read at once.
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
            let code = errno
            close(descriptor)
            throw .system(SystemError(call: "mmap(\(path))", code: code))
        }
        self.path = path
        self.driverName = driverName
        self.geometry = geometry
        self.descriptor = descriptor
        self.length = length
        self.isPanel = isPanel
        self.base = mapped
    }

    /// Whether this is a panel (a framebuffer device) rather than a file.
    public let isPanel: Bool

    /// Powers the panel up or blanks it (`FBIOBLANK`: `FB_BLANK_UNBLANK` or
    /// `FB_BLANK_POWERDOWN`; the pixels stay in its memory). A file has no panel: nothing
    /// happens. Throws when the driver refuses (some do not implement blanking).
    public func setPanelAwake(_ awake: Bool) throws(FramebufferError) {
        guard isPanel else { return }
        let fbioblank: UInt = 0x4611
        let value: UInt = awake ? 0 : 4
        do {
            _ = try SystemError.retrying("ioctl(\(path), FBIOBLANK)") { relay_ioctl_value(descriptor, fbioblank, value) }
        } catch {
            throw .system(error)
        }
    }

    deinit {
        munmap(base, length)
        close(descriptor)
    }

    /// Opens what `path` names: a framebuffer device (a character device), or else a file with
    /// `fileGeometry`, created if missing. Under /dev only a device is used and nothing is
    /// created: a missing panel there is an error that says so, not a new file in /dev. The
    /// shared-memory directories under it (/dev/shm) hold files like any other directory.
    public static func open(path: String, fileGeometry: FramebufferGeometry) throws(FramebufferError) -> Framebuffer {
        var status = stat()
        let exists = stat(path, &status) == 0
        if exists, status.st_mode & S_IFMT == S_IFCHR { return try openDevice(path: path) }
        guard path.hasPrefix("/dev/"), !path.hasPrefix("/dev/shm/") || path.contains("/..") else { return try openFile(path: path, geometry: fileGeometry) }
        if exists { throw .notADevice(path: path) }
        return try openDevice(path: path)
    }

    /// Opens a framebuffer device, reads its geometry with `FBIOGET_VSCREENINFO` and
    /// `FBIOGET_FSCREENINFO`, and maps its memory.
    public static func openDevice(path: String) throws(FramebufferError) -> Framebuffer {
        let descriptor: Int32
        do {
            descriptor = try SystemError.retrying("open(\(path))") { Glibc.open(path, O_RDWR | O_CLOEXEC) }
        } catch {
            throw .cannotOpen(
                DeviceError(
                    role: "the panel", path: path, group: "video", listing: "ls /dev/fb*, cat /sys/class/graphics/fb*/name",
                    cause: error))
        }
        let geometry: FramebufferGeometry, fixed: FixedScreenInfo
        do throws(FramebufferError) {
            let info = try readScreenInfo(descriptor: descriptor, path: path)
            fixed = info.1
            geometry = try FramebufferGeometry(variable: info.0, fixed: fixed)
        } catch {
            close(descriptor)
            throw error
        }
        return try Framebuffer(
            path: path, driverName: fixed.id, geometry: geometry, descriptor: descriptor, length: Int(fixed.memoryLength), isPanel: true)
    }

    /// Opens (or, with `create`, creates and sizes) a file holding pixels in `geometry`'s layout.
    ///
    /// The file has no header: it is byte for byte what the device's memory would hold, so the
    /// same code draws to both and `relayctl screenshot` reads it with the same geometry.
    /// A file it creates is the owner's only (0600): it holds what the screen shows.
    public static func openFile(path: String, geometry: FramebufferGeometry, create: Bool = true) throws(FramebufferError) -> Framebuffer {
        try geometry.validate()
        let flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0)
        let descriptor: Int32
        do {
            descriptor = try SystemError.retrying("open(\(path))") { Glibc.open(path, flags, 0o600) }
        } catch { throw .system(error) }
        let required = geometry.requiredLength
        do throws(FramebufferError) {
            var status = stat()
            do {
                try SystemError.retrying("fstat(\(path))") { fstat(descriptor, &status) }
            } catch { throw .system(error) }
            let size = Int(status.st_size)
            if size < required {
                guard create else { throw .tooSmall(name: path, length: size, required: required) }
                do {
                    try SystemError.retrying("ftruncate(\(path))") { ftruncate(descriptor, off_t(required)) }
                } catch { throw .system(error) }
            }
        } catch {
            close(descriptor)
            throw error
        }
        return try Framebuffer(path: path, driverName: "", geometry: geometry, descriptor: descriptor, length: required, isPanel: false)
    }

    /// Reads both screen-info structs of an open framebuffer device.
    private static func readScreenInfo(descriptor: Int32, path: String) throws(FramebufferError) -> (VariableScreenInfo, FixedScreenInfo) {
        let getVariable: UInt = 0x4600, getFixed: UInt = 0x4602
        var variableBytes = [UInt8](repeating: 0, count: VariableScreenInfo.byteCount)
        var fixedBytes = [UInt8](repeating: 0, count: FixedScreenInfo.byteCount)
        try ioctl(descriptor, getVariable, "ioctl(\(path), FBIOGET_VSCREENINFO)", into: &variableBytes)
        try ioctl(descriptor, getFixed, "ioctl(\(path), FBIOGET_FSCREENINFO)", into: &fixedBytes)
        guard let variable = variableBytes.withUnsafeBytes({ VariableScreenInfo(bytes: $0) }),
              let fixed = fixedBytes.withUnsafeBytes({ FixedScreenInfo(bytes: $0) })
        else { throw .system(SystemError(call: "ioctl(\(path))", code: EINVAL)) }
        return (variable, fixed)
    }

    /// An ioctl that fills a buffer, retried on EINTR.
    private static func ioctl(_ descriptor: Int32, _ request: UInt, _ call: String, into bytes: inout [UInt8]) throws(FramebufferError) {
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in
                try SystemError.retrying(call) { relay_ioctl_pointer(descriptor, request, buffer.baseAddress) }
            }
        }
        if case .failure(let error) = result { throw .system(error) }
    }

    /// The colour of one visible pixel, read back from the memory; `nil` outside the screen.
    public func pixel(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < geometry.width, y < geometry.height else { return nil }
        return Color(rgb: geometry.format.decode(load(at: address(x: x, y: y))))
    }

    /// The byte offset of a visible pixel in the mapping.
    @inline(__always)
    func address(x: Int, y: Int) -> Int {
        geometry.offset + y * geometry.stride + x * geometry.format.bytesPerPixel
    }

    @inline(__always)
    func load(at offset: Int) -> UInt32 {
        switch geometry.format {
        case .rgb565: UInt32(base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        case .xrgb8888: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        }
    }

    @inline(__always)
    func store(_ pixel: UInt32, at offset: Int) {
        switch geometry.format {
        case .rgb565: base.storeBytes(of: UInt16(truncatingIfNeeded: pixel), toByteOffset: offset, as: UInt16.self)
        case .xrgb8888: base.storeBytes(of: pixel, toByteOffset: offset, as: UInt32.self)
        }
    }
}
