public import ArgumentParser

/// The options both agents share.
public struct AgentOptions: ParsableArguments {
    /// How the agents reach each other.
    public enum Transport: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// Bluetooth RFCOMM through BlueZ.
        case rfcomm
        /// A Unix-domain socket or TCP on 127.0.0.1, for one desktop.
        case loopback
    }

    /// The transport to use.
    @Option(help: "How to reach the other agent: rfcomm (Bluetooth) or loopback (same machine).")
    public var transport: Transport = .rfcomm

    /// The configuration file.
    @Option(help: "Configuration file (TOML); default: $CONFIGURATION_DIRECTORY or the XDG config directory.")
    public var config: String?

    /// Where the agent keeps its database and keys.
    @Option(name: .customLong("state-dir"), help: "State directory; default: $STATE_DIRECTORY or the XDG state directory.")
    public var stateDirectory: String?

    /// Creates default options.
    public init() {}
}

/// Raised by an agent whose runtime this build does not contain yet.
public struct AgentUnavailable: Error, CustomStringConvertible {
    /// The executable's name.
    public let name: String

    /// Creates the error for an executable.
    public init(name: String) { self.name = name }

    /// What happened and what works instead.
    public var description: String {
        "\(name): this build contains the notification model and relayctl's offline commands, "
            + "not the agent's runtime yet; see README.md, \"Status\". Try: relayctl examples"
    }
}
