/// A vibration motor that is switched on and off: what the pulses of a pattern drive.
public protocol VibrationMotor: Sendable, CustomStringConvertible {
    /// Starts (`true`) or stops (`false`) the motor.
    func run(_ running: Bool) throws
}
