import ArgumentParser
import RelayCore

/// `relayctl`: pairs, inspects and drives the Relay agents, and checks notification files.
@main
struct RelayCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relayctl",
        abstract: "Control Relay, the phone-to-wearable notification bridge.",
        discussion: """
            relayctl talks to relay-phone and relay-wearable through their control sockets, \
            and works offline on notification files: it validates requests, categories and push \
            payloads and prints when scheduled requests will fire.
            """,
        version: "relayctl \(RelayVersion.string)",
        subcommands: [
            CheckCommand.self, ExamplesCommand.self, StatusCommand.self, PressCommand.self, ScreenshotCommand.self,
            DeliveredCommand.self, InvokeCommand.self, ReplyCommand.self, DismissCommand.self, LockCommand.self,
            UnlockCommand.self,
        ])
}
