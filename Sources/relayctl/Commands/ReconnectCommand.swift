import ArgumentParser
import RelayControl

/// `relayctl reconnect`: relay-phone drops its session with the wearable and connects again.
struct ReconnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconnect",
        abstract: "Make relay-phone drop its link to the wearable and connect again at once.",
        discussion: "What was not yet acknowledged is sent again; nothing is lost or applied twice.")

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = try control.send(PhoneRequest.reconnect)
        print(response.values["link"]?.description ?? "")
    }
}
