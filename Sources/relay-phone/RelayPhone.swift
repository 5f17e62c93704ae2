import ArgumentParser
import RelayCLI
import RelayCore

/// `relay-phone`: the phone-side agent.
@main
struct RelayPhone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-phone",
        abstract: "The phone agent: mirrors notifications to the paired wearable.",
        discussion: """
            relay-phone takes notifications on D-Bus (as the org.freedesktop.Notifications \
            server, or as a monitor beside another server, plus Relay's own rich API), keeps \
            them in its notification centre and mirrors them over Bluetooth RFCOMM, or a local \
            socket in loopback mode, to relay-wearable while the phone is locked.
            """,
        version: "relay-phone \(RelayVersion.string)")

    @OptionGroup var agent: AgentOptions

    func run() async throws {
        throw AgentUnavailable(name: "relay-phone")
    }
}
