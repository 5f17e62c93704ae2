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

    /// Creates default options.
    public init() {}
}

/// Raised by an agent asked for the Bluetooth transport, which this build does not contain yet.
public struct AgentUnavailable: Error, CustomStringConvertible {
    /// The executable's name.
    public let name: String

    /// Creates the error for an executable.
    public init(name: String) { self.name = name }

    /// What happened and what works instead.
    public var description: String {
        "\(name): the Bluetooth (rfcomm) transport is not in this build yet; "
            + "run both agents on one machine with --transport loopback (README.md, \"Status\")"
    }
}
