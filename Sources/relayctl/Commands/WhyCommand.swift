import ArgumentParser
import Foundation
import RelayControl

/// `relayctl why ID`: why a notification on the wearable alerted or arrived silently.
struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Say why a notification on the wearable alerted or arrived silently, each time it was decided.",
        discussion: """
            ID is the number `relayctl notifications` lists. The wearable keeps its decisions a week \
            (Docs/POLICY.md has every reason it gives).
            """)

    @Argument(help: "The notification's id, from `relayctl notifications`.")
    var id: UInt32

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        try Decisions.print(control.send(WearableRequest.why(id: id), json: json), json: json)
    }
}

/// `relayctl history [--app A]`: the wearable's latest decisions.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the wearable's latest 50 decisions (alerted or silent, and why), newest first.")

    @Option(help: "Only this app's (its name as `relayctl notifications` shows it).")
    var app: String?

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        try Decisions.print(control.send(WearableRequest.history(app: app), json: json), json: json)
    }
}

/// One line per decision, as `why` and `history` print them.
enum Decisions {
    static func print(_ response: ControlResponse, json: Bool) throws {
        if json {
            Swift.print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        guard case .list(let decisions)? = response.values["decisions"] else { return }
        for case .object(let decision) in decisions {
            func text(_ key: String) -> String { decision[key].map { "\($0)" } ?? "" }
            let at = TimeInterval(text("at")).map { Date(timeIntervalSince1970: $0).formatted(.iso8601) } ?? "?"
            let alerted = text("alerted") == "1" ? "alerted" : "silent"
            let notification = decision["notification"] == nil ? "" : "#\(text("notification"))  "
            Swift.print("\(at)  \(notification)revision \(text("revision"))  \(text("app"))  \(alerted): \(text("reason"))")
        }
    }
}
