import ArgumentParser
import RelayControl

/// `relayctl delivered`: the notifications relay-phone holds, as the wearable will get them.
struct DeliveredCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivered",
        abstract: "List the notifications relay-phone has delivered and not yet closed.",
        discussion: """
            One per line: id, app, summary, and the actions as key=label; --json prints the phone's \
            response. Notifications of relay-phone's own API (relayctl notify) are listed with their \
            app id as app, and in JSON with "api":"rich" and their "identifier".
            """)

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @Option(name: .customLong("app-id"), help: "List only this app's notifications (its app name, or its app id).")
    var appID: String?

    @OptionGroup var control: ControlOptions

    func run() throws {
        var response = try control.send(PhoneRequest.delivered, json: json)
        if let appID, case .list(let entries) = response.values["notifications"] {
            response.values["notifications"] = .list(entries.filter {
                if case .object(let entry) = $0 { return entry["app"] == .string(appID) }
                return false
            })
        }
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
        return TabSeparated.line(fields + ["[" + actions.joined(separator: " ") + "]"])
    }
}
