import ArgumentParser
import RelayControl

/// `relayctl delivered`: the notifications relay-phone holds, as the wearable will get them.
struct DeliveredCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivered",
        abstract: "List the notifications relay-phone has delivered and not yet closed.",
        discussion: "One per line: id, app, summary, and the actions as key=label; --json prints the phone's response.")

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = try control.send(ControlRequest(command: "delivered"), to: .phone)
        if json {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        guard case .list(let entries) = response.values["notifications"] else { return }
        for case .object(let entry) in entries {
            print(Self.line(entry))
        }
    }

    /// `3  calendar  Meeting  [yes=Yes no=No]`: tab-separated, for people and for `cut`.
    static func line(_ entry: [String: ControlValue]) -> String {
        var actions: [String] = []
        if case .list(let list) = entry["actions"] {
            for case .object(let action) in list {
                actions.append("\(action["key"]?.description ?? "")=\(action["label"]?.description ?? "")")
            }
        }
        let fields = [entry["id"], entry["app"], entry["summary"]].map { $0?.description ?? "" }
        return (fields + ["[" + actions.joined(separator: " ") + "]"]).joined(separator: "\t")
    }
}
