import Glibc
public import RelaySystem

/// One GPIO line held as an output for as long as this value lives.
public protocol GPIOOutputLine: Sendable {
    /// Drives the line high (`true`) or low.
    func set(high: Bool) throws(SystemError)
}

/// Requests GPIO lines as outputs: ``Libgpiod`` on a board; tests give a fake, one level down,
/// since no kernel this project runs on (the VM's included) has a GPIO simulator.
public protocol GPIOLines: Sendable {
    /// Line `offset` of the chip at `chip` (`/dev/gpiochip0`), requested as an output that starts
    /// low, under the name `consumer` (what `gpioinfo` shows).
    func output(chip: String, offset: UInt32, consumer: String) throws(GPIOLineError) -> any GPIOOutputLine
}

/// Why a GPIO line could not be had or driven, said for the person who wired the board.
public enum GPIOLineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The chip's device could not be opened: missing, not permitted, or not a GPIO chip.
    case chip(path: String, SystemError)
    /// The chip has no line at `offset`; it has `lines`.
    case noSuchLine(chip: String, offset: UInt32, lines: UInt32)
    /// Someone else holds the line: a kernel driver (an overlay that claimed the pin) or
    /// another program, named by the kernel as `consumer`.
    case busy(chip: String, offset: UInt32, consumer: String)
    /// The request failed for another reason.
    case request(chip: String, offset: UInt32, SystemError)

    public var description: String {
        switch self {
        case .chip(let path, let cause):
            switch cause.code {
            case ENOENT, ENODEV, ENXIO:
                "the vibrator's GPIO chip \(path) does not exist (\(cause)): gpiodetect lists the chips (Debian's gpiod package)"
            case EACCES, EPERM:
                "relay-wearable may not open the GPIO chip \(path) (\(cause)): on Raspberry Pi OS its user needs group gpio "
                    + "(the package adds it); elsewhere install Hardware/udev/70-relay.rules, which gives the chips to group relay; "
                    + "the packaged service also needs `systemctl edit relay-wearable`, [Service] DeviceAllow=\(path) rw "
                    + "(Hardware/README.md, Vibration)"
            default:
                "\(path) is not a GPIO chip relay-wearable can use (\(cause)): name one that gpiodetect lists"
            }
        case .noSuchLine(let chip, let offset, let lines):
            "\(chip) has no line \(offset); its lines are 0 to \(Int(lines) - 1) (gpioinfo \(chip) lists them)"
        case .busy(let chip, let offset, let consumer):
            "line \(offset) of \(chip) is held by \"\(consumer)\" (gpioinfo \(chip) shows it): remove the overlay or stop "
                + "the program that claims it, or wire the motor to a free line"
        case .request(let chip, let offset, let cause):
            "cannot drive line \(offset) of \(chip) as an output: \(cause)"
        }
    }
}
