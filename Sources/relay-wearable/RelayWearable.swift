import ArgumentParser
import Foundation
import RelayCLI
import RelayCore
import ServiceLifecycle

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

            With --transport rfcomm (the default) it registers Relay's Bluetooth profile with \
            bluetoothd on its RFCOMM channel and serves the connections BlueZ hands over; a \
            bonding request shows BlueZ's passkey on the pairing screen (Select confirms, Back \
            rejects), then Relay's own code (Docs/BLUETOOTH.md). With --transport loopback the \
            phone connects to its link socket on the same machine instead. Keys come from evdev \
            and from `relayctl press`; `relayctl screenshot` and `relayctl status` work through \
            the control socket (Docs/CONTROL.md). It prints "ready: …" on standard output once \
            the socket accepts requests, naming what it listens on, and stops on SIGINT or \
            SIGTERM, removing its sockets.

            Settings come from wearable.toml (--config; Docs/CONFIGURATION.md); flags override \
            the file.
            """,
        version: "relay-wearable \(RelayVersion.string)")

    @OptionGroup var agent: AgentOptions
    @OptionGroup var screen: WearableOptions

    func run() async throws {
        // The configuration before anything else: a mistake in it stops the agent (exit 1, the
        // file's line on standard error) before the screen or a socket is opened.
        let (transport, configuration, source) = try screen.resolve(agent: agent, environment: ProcessInfo.processInfo.environment)
        let log = AgentLogSink.standardError
        log("relay-wearable: " + source)
        // The screen's loop is the agent's one service, on a thread of its own (it blocks in
        // `poll`) that owns the framebuffer and the state machine, from opening them to removing
        // the sockets. The panel named by its driver and Bluetooth come before it: the agent
        // waits for the panel's driver (PanelSearch.swift) and for an adapter, says what is
        // missing (WearableBluetooth.swift), and a stop signal ends either wait.
        let stop = try StopRequest()
        try await AgentServices.run(
            [
                AgentServices.service("screen") {
                    var found = configuration
                    let bluetooth: WearableBluetooth?
                    do {
                        if let driver = configuration.panelDriver {
                            found.framebuffer = try await cancelWhenGracefulShutdown { try await PanelSearch.wait(driver: driver, log: log) }
                        }
                        bluetooth =
                            if transport == .rfcomm {
                                try await cancelWhenGracefulShutdown {
                                    try await WearableBluetooth.check(
                                        adapter: configuration.bluetoothAdapter, channel: configuration.bluetoothChannel, log: log)
                                }
                            } else {
                                nil
                            }
                    } catch is CancellationError {
                        return
                    }
                    let resolved = found
                    try await AgentServices.onThread("screen", stop: stop) {
                        defer { bluetooth?.stop() }
                        try WearableRuntime(configuration: resolved, bluetooth: bluetooth, stop: stop).run()
                    }
                }
            ], logger: AgentLog.logger(label: "relay-wearable"))
    }
}
