import ArgumentParser
import Foundation
import RelayCLI
import RelayCore

/// `relay-wearable`: the wearable-side agent.
@main
struct RelayWearable: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-wearable",
        abstract: "The wearable agent: shows the phone's notifications and sends back what you do.",
        discussion: """
            relay-wearable keeps a replica of the phone's notification centre, draws it on the \
            framebuffer (or a file in loopback mode), reads keys from evdev, sends actions, \
            replies and dismissals back, and fires the phone's scheduled notifications itself \
            while the phone is out of range.

            This build runs the screen side only, with --transport loopback: the watch face \
            (showing "out of range" until the link exists), keys from evdev and from \
            `relayctl press`, screenshots with `relayctl screenshot` and `relayctl status`, all \
            through the control socket (Docs/CONTROL.md). It prints "ready: …" on standard \
            output once the socket accepts requests, and stops on SIGINT or SIGTERM, removing \
            its socket.

            Settings come from wearable.toml (--config; Docs/CONFIGURATION.md); flags override \
            the file.
            """,
        version: "relay-wearable \(RelayVersion.string)")

    @OptionGroup var agent: AgentOptions
    @OptionGroup var screen: WearableOptions

    func run() throws {
        // The configuration before anything else: a mistake in it stops the agent (exit 1, the
        // file's line on standard error) before the screen or a socket is opened.
        let (transport, configuration, source) = try screen.resolve(agent: agent, environment: ProcessInfo.processInfo.environment)
        let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        log("relay-wearable: " + source)
        // Bluetooth before the screen and the sockets: without it the agent says what is missing
        // (WearableBluetooth.swift).
        let bluetooth: WearableBluetooth? =
            if transport == .rfcomm {
                try WearableBluetooth.check(adapter: configuration.bluetoothAdapter, channel: configuration.bluetoothChannel, log: log)
            } else {
                nil
            }
        let runtime = try WearableRuntime(configuration: configuration)
        bluetooth?.serve(runtime.link)
        defer { bluetooth?.stop() }
        try runtime.run()
    }
}
