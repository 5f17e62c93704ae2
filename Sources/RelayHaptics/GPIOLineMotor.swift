/// A coin motor switched by one GPIO line through a transistor (Hardware/README.md,
/// Vibration): the line is requested as an output, low, when this is made and held until it
/// goes, so nothing else drives it meanwhile; high runs the motor.
public struct GPIOLineMotor: VibrationMotor {
    /// The chip's device, `/dev/gpiochip0`.
    public let chip: String
    /// The line's offset on the chip (on a Raspberry Pi's first chip, the BCM GPIO number).
    public let offset: UInt32
    private let line: any GPIOOutputLine

    /// Requests the line from `lines` (libgpiod on a board) under the consumer name
    /// `relay-vibrator`; a chip or line that cannot be had is an error that names the fix.
    public init(chip: String, offset: UInt32, lines: any GPIOLines = Libgpiod()) throws(GPIOLineError) {
        self.chip = chip
        self.offset = offset
        line = try lines.output(chip: chip, offset: offset, consumer: "relay-vibrator")
    }

    /// `GPIO line N of CHIP`.
    public var description: String { "GPIO line \(offset) of \(chip)" }

    /// Drives the line high to run the motor, low to stop it.
    public func run(_ running: Bool) throws {
        try line.set(high: running)
    }
}
