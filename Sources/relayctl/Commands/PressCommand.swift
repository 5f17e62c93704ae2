import ArgumentParser
import RelayControl

/// `relayctl press KEY`: a key press injected into the wearable.
struct PressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "press",
        abstract: "Press one of the wearable's keys: up, down, select or back.",
        discussion: "Prints the screen shown afterwards: idle, shortLook, longLook, textReply, list, thread, pairing, muteMenu or controls.")

    /// The four keys.
    enum Key: String, ExpressibleByArgument, CaseIterable {
        case up, down, select, back
    }

    @Argument(help: "The key: up, down, select or back.")
    var key: Key

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = try control.send(WearableRequest.press(key: key.rawValue))
        print(response.values["screen"]?.description ?? "")
    }
}
