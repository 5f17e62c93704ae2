/// The vibration motor the configuration names (`haptics.vibrator`, with `haptics.vibrator_line`
/// for a GPIO chip), before it is opened.
public enum VibratorDevice: Hashable, Sendable, CustomStringConvertible {
    /// A force-feedback input device (`gpio-vibrator`, `pwm-vibrator`).
    case forceFeedback(path: String)
    /// A line of a GPIO chip, through libgpiod.
    case gpioLine(chip: String, offset: UInt32)
    /// A sysfs value file (`/sys/class/leds/NAME/brightness`).
    case valueFile(path: String)

    /// What `path` and `line` name: with a line, that line of the chip at `path`; otherwise a
    /// value file under /sys, or else a force-feedback device.
    public init(path: String, line: UInt32?) {
        if let line {
            self = .gpioLine(chip: path, offset: line)
        } else if path.hasPrefix("/sys/") {
            self = .valueFile(path: path)
        } else {
            self = .forceFeedback(path: path)
        }
    }

    /// The device's path, or the chip's.
    public var path: String {
        switch self {
        case .forceFeedback(let path), .valueFile(let path): path
        case .gpioLine(let chip, _): chip
        }
    }

    /// The motor, opened (and switched off); an error that names the fix when it cannot be.
    public func open() throws -> any VibrationMotor {
        switch self {
        case .forceFeedback(let path): try ForceFeedbackMotor(path: path)
        case .gpioLine(let chip, let offset): try GPIOLineMotor(chip: chip, offset: offset)
        case .valueFile(let path): try ValueFileMotor(valuePath: path)
        }
    }

    /// `the force-feedback device PATH`, `GPIO line N of CHIP`, `the value file PATH`: as its
    /// motor describes itself.
    public var description: String {
        switch self {
        case .forceFeedback(let path): "the force-feedback device \(path)"
        case .gpioLine(let chip, let offset): "GPIO line \(offset) of \(chip)"
        case .valueFile(let path): "the value file \(path)"
        }
    }
}
