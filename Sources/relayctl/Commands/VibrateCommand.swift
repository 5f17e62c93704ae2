import ArgumentParser
import RelayControl
import RelayCore

/// `relayctl vibrate`: plays an alert's vibration on the wearable, to try its motor.
struct VibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vibrate",
        abstract: "Play the vibration of an interruption level on the wearable, to try its motor.",
        discussion: """
            Prints the pattern played and the motor it went to (haptics.vibrator in wearable.toml; \
            Hardware/README.md shows the wiring). With no motor configured the wearable logs the \
            pattern instead.
            """)

    @Option(help: "The interruption level whose pattern plays: passive (none), active, time-sensitive or critical.")
    var level = InterruptionLevel.active.rawValue

    func validate() throws {
        guard InterruptionLevel(rawValue: level) != nil else {
            throw ValidationError("--level '\(level)' is not one of: " + InterruptionLevel.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = try control.send(WearableRequest.vibrate(level: level))
        print("\(level): \(response.values["pattern"]?.description ?? "") → \(response.values["vibrator"]?.description ?? "")")
    }
}
