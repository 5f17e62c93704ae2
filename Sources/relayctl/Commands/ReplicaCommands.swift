import ArgumentParser
import RelayControl

/// `relayctl notifications`: what relay-wearable shows, as it has it.
struct NotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "List the notifications relay-wearable shows (its replica of the phone's), newest first.",
        discussion: """
            One per line, tab-separated: id (the phone's key for it), app, title, body, and how many \
            times it alerted since relay-wearable started (alerts=N). --json prints the wearable's \
            response.
            """)

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = try control.send(WearableRequest.notifications, json: json)
        if json {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        guard case .list(let entries) = response.values["notifications"] else { return }
        for case .object(let entry) in entries {
            let fields = ["id", "app", "title", "body"].map { entry[$0]?.description ?? "" }
            print(TabSeparated.line(fields + ["alerts=\(entry["alerts"]?.description ?? "0")"]))
        }
    }
}

/// `relayctl respond ID ACTION`: answers a notification on the wearable, as its buttons do.
struct RespondCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "respond",
        abstract: "Choose an action of a notification on relay-wearable, as its long look's buttons do.",
        discussion: """
            ACTION is one of the notification's buttons, or dismiss; a text-input action needs \
            --text. The response is stored in the wearable's outbox and reaches the phone (and the \
            app) over the link, now or when the phone is next in range.
            """)

    @Argument(help: "The notification's id, from relayctl notifications.")
    var id: UInt32

    @Argument(help: "The action's identifier, or dismiss.")
    var action: String

    @Option(help: "The reply's text, for a text-input action.")
    var text: String?

    @OptionGroup var control: ControlOptions

    func run() throws {
        _ = try control.send(WearableRequest.respond(id: id, action: action, text: text))
    }
}
