import ArgumentParser
import Foundation
import RelayControl

/// `relayctl why ID`: why a notification on the wearable alerted or arrived silently.
struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Say why a notification alerted or arrived silently, each time it was decided.",
        discussion: """
            ID is the number `relayctl notifications` lists (with --phone: `relayctl delivered`). The \
            wearable keeps its decisions a week; the phone keeps its own (mirrored or not, an alert asked \
            or not) and the wearable's reports, "on the wearable: …" (Docs/POLICY.md has every reason).
            """)

    @Argument(help: "The notification's id, from `relayctl notifications` (with --phone: `relayctl delivered`).")
    var id: UInt32

    @Flag(help: "Ask relay-phone: its decisions and the wearable's reports.")
    var phone = false

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = phone ? try control.send(PhoneRequest.why(id: id), json: json) : try control.send(WearableRequest.why(id: id), json: json)
        try Decisions.print(response, json: json)
    }
}

/// `relayctl history [--app A]`: the wearable's latest decisions.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the latest 50 decisions (alerted or silent, and why), newest first: the wearable's, or with --phone the phone's.")

    @Option(help: "Only this app's (its name as `relayctl notifications` shows it).")
    var app: String?

    @Flag(help: "Ask relay-phone: its decisions and the wearable's reports.")
    var phone = false

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response =
            phone ? try control.send(PhoneRequest.history(app: app), json: json) : try control.send(WearableRequest.history(app: app), json: json)
        try Decisions.print(response, json: json)
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
            // The phone's own decisions say whether it asked the wearable for an alert.
            let phone = text("reason").hasPrefix("on the phone: ")
            let alerted = text("alerted") == "1" ? (phone ? "alert asked" : "alerted") : (phone ? "no alert asked" : "silent")
            let notification = decision["notification"] == nil ? "" : "#\(text("notification"))  "
            Swift.print("\(at)  \(notification)revision \(text("revision"))  \(text("app"))  \(alerted): \(text("reason"))")
        }
        if case .int(let earlier)? = response.values["earlier"] {
            Swift.print(
                "(and \(earlier) decision\(earlier == 1 ? "" : "s") about an earlier notification with this id, before this one arrived: "
                    + "relayctl history --phone lists them)")
        }
    }
}
