import Glibc
public import RelaySystem

/// A motor behind a sysfs value file: `/sys/class/leds/NAME/brightness` for a motor declared
/// with the `gpio-leds` overlay (or `/sys/class/gpio/gpioN/value` on kernels that still export
/// GPIOs that way). "1" starts the motor, "0" stops it.
public struct ValueFileMotor: VibrationMotor {
    /// The value file.
    public let valuePath: String

    /// A motor behind `valuePath`, switched off now: a motor an earlier run left running stops,
    /// and a file that may not be written is found at start, not at the first alert.
    public init(valuePath: String) throws(DeviceError) {
        self.valuePath = valuePath
        do {
            try write("0")
        } catch {
            throw DeviceError(
                role: "the vibrator", path: valuePath, group: "relay", listing: "ls /sys/class/leds", cause: error,
                accessAdvice: "Hardware/udev/70-relay.rules gives it to group relay; the packaged service sees /sys read-only: "
                    + "let it write this file with `systemctl edit relay-wearable`, [Service] ReadWritePaths=\(valuePath)")
        }
    }

    /// `the value file PATH`.
    public var description: String { "the value file \(valuePath)" }

    /// Writes "1" or "0".
    public func run(_ running: Bool) throws {
        try write(running ? "1" : "0")
    }

    /// Writes a value, opening the file each time as `echo 1 > value` does: sysfs attributes
    /// expect each value as a fresh write from offset 0.
    func write(_ value: String) throws(SystemError) {
        let path = valuePath
        let descriptor = try SystemError.retrying("open(\(path))") { open(path, O_WRONLY | O_CLOEXEC) }
        defer { close(descriptor) }
        let bytes = Array(value.utf8)
        let written = try SystemError.retrying("write(\(path))") { Glibc.write(descriptor, bytes, bytes.count) }
        guard written == bytes.count else { throw SystemError(call: "write(\(path))", code: EIO) }
    }
}
