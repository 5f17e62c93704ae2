import ArgumentParser
import Foundation
import RelayControl

/// `relayctl status [--phone]`: what the wearable (or phone) agent is doing.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the wearable agent's state (screen, link, framebuffer, uptime, memory), or the phone's with --phone.")

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @Flag(help: "Ask relay-phone (its socket, phone.sock) instead of relay-wearable.")
    var phone = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = try control.send(ControlRequest(command: "status"), to: phone ? .phone : .wearable)
        if json {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        for name in response.values.keys.sorted() {
            print("\(name): \(Self.format(name, response.values[name]))")
        }
    }

    /// Byte counts in MiB, for people; everything else as it is.
    private static func format(_ name: String, _ value: ControlValue?) -> String {
        guard let value else { return "" }
        if name.hasSuffix("Bytes"), case .int(let bytes) = value {
            return String(format: "%.1f MiB", Double(bytes) / 1_048_576)
        }
        return value.description
    }
}
