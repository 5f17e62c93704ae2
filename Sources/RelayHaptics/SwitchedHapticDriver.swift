/// Plays patterns on a motor that is switched on and off, timing the pulses with `sleeper`.
public struct SwitchedHapticDriver: HapticDriver {
    /// The motor.
    public let motor: any VibrationMotor
    private let sleeper: any HapticSleeper

    /// Creates a driver for `motor`, sleeping with `sleeper` between edges.
    public init(motor: any VibrationMotor, sleeper: any HapticSleeper = ClockSleeper()) {
        self.motor = motor
        self.sleeper = sleeper
    }

    /// Plays the pattern; the motor is off afterwards even when the task is cancelled or a
    /// switch fails half-way.
    public func play(_ pattern: VibrationPattern) async throws {
        for (index, pulse) in pattern.pulses.enumerated() {
            try Task.checkCancellation()
            try motor.run(true)
            do {
                try await sleeper.sleep(for: pulse.on)
            } catch {
                try? motor.run(false)
                throw error
            }
            try motor.run(false)
            if index < pattern.pulses.count - 1, pulse.off > .zero {
                try await sleeper.sleep(for: pulse.off)
            }
        }
    }
}
