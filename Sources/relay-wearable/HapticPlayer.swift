import RelayCLI
import RelayCore
import RelayHaptics

/// Plays the alerts' vibrations on the configured motor, one at a time: a newer alert cancels
/// the pattern still playing, and starts once the motor is off. A motor that refuses is said
/// in the log, each time, and the alert stays on the screen. Used from the screen's thread.
final class HapticPlayer {
    /// What the vibrations go to, for status and `relayctl vibrate`.
    let vibrator: String
    private let driver: any HapticDriver
    private let log: AgentLogSink
    private var playing: Task<Void, Never>?

    /// The motor of `device`; with none, the log (at debug level). A device that cannot be
    /// used is an error that names the fix.
    init(device: VibratorDevice?, log: AgentLogSink) throws {
        self.log = log
        if let device {
            let motor = try device.open()
            vibrator = motor.description
            driver = SwitchedHapticDriver(motor: motor)
        } else {
            vibrator = "the log (haptics.vibrator is not set)"
            driver = LogHapticDriver { log("relay-wearable: " + $0, level: .debug) }
        }
    }

    /// Starts the pattern of `level` (nothing for a passive one) and returns it.
    @discardableResult
    func play(_ level: InterruptionLevel) -> VibrationPattern {
        let pattern = VibrationPattern.pattern(for: level)
        guard !pattern.pulses.isEmpty else { return pattern }
        let previous = playing
        previous?.cancel()
        let (driver, log, vibrator) = (driver, log, vibrator)
        playing = Task {
            // Patterns never overlap on the motor: the one cancelled has switched it off first.
            await previous?.value
            do {
                try await driver.play(pattern)
            } catch is CancellationError {
            } catch {
                log.warning("relay-wearable: \(vibrator) refused the \(level.rawValue) vibration (\(error)); the alert is on the screen only")
            }
        }
        return pattern
    }

    /// Stops what is playing and waits until its task has switched the motor off (a motor
    /// behind a value file would otherwise keep running after the agent exits).
    func stop() {
        guard let playing else { return }
        playing.cancel()
        try? Blocking.run { await playing.value }
    }
}
