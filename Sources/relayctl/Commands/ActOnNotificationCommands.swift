import ArgumentParser
import RelayControl

/// `relayctl invoke ID ACTION`: chooses an action of a delivered notification, as the wearable will.
struct InvokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invoke",
        abstract: "Invoke an action of a notification relay-phone delivered (the app gets ActionInvoked).",
        discussion: "ACTION is one of the keys `relayctl delivered` lists; `default` is a click on the notification.")

    @Argument(help: "The notification's id, from relayctl delivered.")
    var id: UInt32

    @Argument(help: "The action's key.")
    var action: String

    @OptionGroup var control: ControlOptions

    func run() throws {
        _ = try control.send(PhoneRequest.invoke(id: id, action: action))
    }
}

/// `relayctl reply ID TEXT`: sends an inline reply, as the wearable's text reply will.
struct ReplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply",
        abstract: "Reply to a notification relay-phone delivered (the app gets NotificationReplied, or Response).",
        discussion: "For a notification of relay-phone's own API, --action picks the text-input action; default: its first.")

    @Argument(help: "The notification's id, from relayctl delivered.")
    var id: UInt32

    @Argument(help: "The reply's text.")
    var text: String

    @Option(help: "The text-input action to answer with (notifications of relay-phone's own API).")
    var action: String?

    @OptionGroup var control: ControlOptions

    func run() throws {
        _ = try control.send(PhoneRequest.reply(id: id, text: text, action: action))
    }
}

/// `relayctl dismiss ID`: dismisses a notification, as the wearable's dismiss will.
struct DismissCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Dismiss a notification relay-phone delivered (the app gets NotificationClosed, reason 2).")

    @Argument(help: "The notification's id, from relayctl delivered.")
    var id: UInt32

    @OptionGroup var control: ControlOptions

    func run() throws {
        _ = try control.send(PhoneRequest.dismiss(id: id))
    }
}
