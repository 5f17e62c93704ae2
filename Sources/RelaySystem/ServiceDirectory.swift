/// A directory systemd made for the running service and named in its environment
/// (`RuntimeDirectory=` → `$RUNTIME_DIRECTORY`, `StateDirectory=` → `$STATE_DIRECTORY`,
/// `ConfigurationDirectory=` → `$CONFIGURATION_DIRECTORY`; systemd.exec(5)).
public enum ServiceDirectory: String, Sendable, CaseIterable {
    /// `RuntimeDirectory=`: `/run/NAME` for a system unit.
    case runtime = "RUNTIME_DIRECTORY"
    /// `StateDirectory=`: `/var/lib/NAME` for a system unit.
    case state = "STATE_DIRECTORY"
    /// `ConfigurationDirectory=`: `/etc/NAME`.
    case configuration = "CONFIGURATION_DIRECTORY"

    /// The service's directory of this kind, without a trailing slash; `nil` when systemd set
    /// none. systemd lists several directories separated by colons, the first the service's
    /// own; a value that is not an absolute path did not come from systemd and is ignored.
    public func path(in environment: [String: String]) -> String? {
        guard let first = environment[rawValue]?.split(separator: ":").first, first.hasPrefix("/") else { return nil }
        let path = String(first)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
