public import ArgumentParser
public import RelayConfig
public import RelayControl

/// The agent's `control_group`, looked up when it starts, so a group that does not exist stops
/// it as any other configuration mistake does (exit status 78, naming where it was written).
public enum ControlGroupLookup {
    /// The group named by `control_group`, or `nil` when none is named.
    public static func resolve(
        _ name: String?, values: ConfigValues, executable: String
    ) throws(ExitCode) -> ControlGroup? {
        guard let name else { return nil }
        guard let group = ControlGroup.named(name) else {
            let origin = values.origin(of: ControlSocketKeys.controlGroup.path)
            throw ConfigurationRefusal.refuse(
                "\(origin): control_group is \"\(name)\", but there is no such group; create it "
                    + "(sudo groupadd --system \(name); the relay packages create relay) or leave control_group empty",
                executable: executable)
        }
        return group
    }
}
