import Glibc
import RelaySystem

/// Drives a vibration motor through a sysfs value file: `/sys/class/gpio/gpioN/value` for a
/// GPIO exported to user space, or `/sys/class/leds/NAME/brightness` for a motor declared with
/// the `gpio-leds` overlay. "1" starts the motor, "0" stops it.
public struct GPIOHapticDriver: HapticDriver {
    /// The value file.
    public let valuePath: String
    private let sleeper: any HapticSleeper

    /// Creates a driver for a value file, sleeping with `sleeper` between edges.
    public init(valuePath: String, sleeper: any HapticSleeper = ClockSleeper()) {
        self.valuePath = valuePath
        self.sleeper = sleeper
    }

    /// Plays the pattern; the motor is off afterwards even when the task is cancelled or a write
    /// fails half-way.
    public func play(_ pattern: VibrationPattern) async throws {
        for (index, pulse) in pattern.pulses.enumerated() {
            try Task.checkCancellation()
            try write("1")
            do {
                try await sleeper.sleep(for: pulse.on)
            } catch {
                try? write("0")
                throw error
            }
            try write("0")
            if index < pattern.pulses.count - 1, pulse.off > .zero {
                try await sleeper.sleep(for: pulse.off)
            }
        }
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
