import CGPIOD
import Glibc
import RelaySystem
import Synchronization

/// GPIO lines through libgpiod (1.6, Debian 12's), over the kernel's GPIO character device
/// (`/dev/gpiochipN`) rather than the deprecated sysfs interface: a line requested this way is
/// released by the kernel when the process ends, however it ends.
public struct Libgpiod: GPIOLines {
    /// libgpiod.
    public init() {}

    public func output(chip path: String, offset: UInt32, consumer: String) throws(GPIOLineError) -> any GPIOOutputLine {
        guard let chip = gpiod_chip_open(path) else { throw .chip(path: path, SystemError(call: "gpiod_chip_open(\(path))", code: errno)) }
        var handle = LineHandle(chip: chip)
        let lines = gpiod_chip_num_lines(chip)
        guard offset < lines else { throw .noSuchLine(chip: path, offset: offset, lines: lines) }
        guard let line = gpiod_chip_get_line(chip, offset) else {
            throw .request(chip: path, offset: offset, SystemError(call: "gpiod_chip_get_line(\(path), \(offset))", code: errno))
        }
        if gpiod_line_is_used(line) {
            throw .busy(chip: path, offset: offset, consumer: gpiod_line_consumer(line).map { String(cString: $0) } ?? "an unnamed consumer")
        }
        guard gpiod_line_request_output(line, consumer, 0) == 0 else {
            let code = errno
            if code == EBUSY { throw .busy(chip: path, offset: offset, consumer: "another program") }
            throw .request(chip: path, offset: offset, SystemError(call: "gpiod_line_request_output(\(path), \(offset))", code: code))
        }
        handle.line = line
        return LibgpiodOutputLine(handle, name: "\(path) line \(offset)")
    }
}

/// A chip kept open and its requested line; closing the chip releases the line.
private struct LineHandle: ~Copyable {
    let chip: OpaquePointer
    var line: OpaquePointer?

    init(chip: OpaquePointer) { self.chip = chip }

    deinit { gpiod_chip_close(chip) }
}

/// A requested line. The lock serialises the two pointers' use; what it is held across, one
/// `GPIOHANDLE_SET_LINE_VALUES` ioctl, sets a register and never waits.
private final class LibgpiodOutputLine: GPIOOutputLine {
    private let handle: Mutex<LineHandle>
    private let name: String

    init(_ handle: consuming sending LineHandle, name: String) {
        self.handle = Mutex(handle)
        self.name = name
    }

    func set(high: Bool) throws(SystemError) {
        let name = name
        let failure: Int32? = handle.withLock { handle in
            guard let line = handle.line else { return EBADF }
            return gpiod_line_set_value(line, high ? 1 : 0) == 0 ? nil : errno
        }
        if let failure { throw SystemError(call: "gpiod_line_set_value(\(name))", code: failure) }
    }
}
