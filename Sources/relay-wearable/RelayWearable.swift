import ArgumentParser
import RelayCLI
import RelayCore

/// `relay-wearable`: the wearable-side agent.
@main
struct RelayWearable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-wearable",
        abstract: "The wearable agent: shows the phone's notifications and sends back what you do.",
        discussion: """
            relay-wearable keeps a replica of the phone's notification centre, draws it on the \
            framebuffer (or a file in loopback mode), reads keys from evdev, sends actions, \
            replies and dismissals back, and fires the phone's scheduled notifications itself \
            while the phone is out of range.
            """,
        version: "relay-wearable \(RelayVersion.string)")

    @OptionGroup var agent: AgentOptions

    func run() async throws {
        throw AgentUnavailable(name: "relay-wearable")
    }
}
