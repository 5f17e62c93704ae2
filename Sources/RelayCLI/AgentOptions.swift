public import ArgumentParser
public import RelayConfig

/// The options both agents share: the configuration file, and the transport it may set.
///
/// Options that stand for a configuration key have no default here: an option left out is
/// `nil`, so the file's value stands (flags over file over defaults, Docs/CONFIGURATION.md).
public struct AgentOptions: ParsableArguments {
    /// The configuration file named on the command line.
    @Option(
        help: ArgumentHelp(
            "The configuration file (TOML); default: $RELAY_CONFIG, else $XDG_CONFIG_HOME/relay/ROLE.toml "
                + "(~/.config/relay/ROLE.toml), ROLE being phone or wearable. Flags override it; Docs/CONFIGURATION.md lists its keys.",
            valueName: "path"))
    public var config: String?

    /// The transport, when given.
    @Option(help: "How to reach the other agent: rfcomm (Bluetooth) or loopback (same machine); default: the file's, else rfcomm.")
    public var transport: TransportKind?

    /// The group admitted to the control socket, when given.
    @Option(
        name: .customLong("control-group"),
        help: "A group whose members may use the control socket besides the agent's user (the packaged services: relay); default: none.")
    public var controlGroup: String?

    /// Print the configuration file with every key at its default, commented out, and exit.
    @Flag(
        name: .customLong("print-default-config"),
        help: "Print the configuration file with every key at its default, commented out, and exit (the packages install it in /etc/relay).")
    public var printDefaultConfig = false

    /// Creates default options.
    public init() {}

    /// A flag's endpoint in the written form the configuration takes: a value with a scheme
    /// (`unix:`, `tcp:`, `rfcomm:`) as it is, anything else as a Unix socket's path, so that
    /// `--peer run/wearable.sock` keeps working beside `--peer tcp:127.0.0.1:7300`.
    public static func endpoint(flag value: String?) -> String? {
        guard let value, !value.isEmpty else { return value }
        let schemes = ["unix:", "tcp:", "rfcomm:"]
        return schemes.contains(where: value.hasPrefix) ? value : "unix:" + value
    }
}
