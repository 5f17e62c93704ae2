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
        let response = try phone ? control.send(PhoneRequest.status, json: json) : control.send(WearableRequest.status, json: json)
        if json {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        for name in response.values.keys.sorted() {
            print("\(name): \(Self.format(name, response.values[name], in: response.values))")
        }
    }

    /// Byte counts in MiB and the link's RSSI with its unit, for people; everything else as it is.
    private static func format(_ name: String, _ value: ControlValue?, in values: [String: ControlValue]) -> String {
        guard let value else { return "" }
        if name.hasSuffix("Bytes"), case .int(let bytes) = value {
            return String(format: "%.1f MiB", Double(bytes) / 1_048_576)
        }
        if name == "rssi", case .int(let rssi) = value {
            // HCI's Read RSSI on a Classic link is relative to the golden receive power range, not dBm.
            return values["linkQualitySource"] == .string("hci") ? "\(rssi) dB (HCI Read RSSI)" : "\(rssi) dBm"
        }
        return value.description
    }
}
