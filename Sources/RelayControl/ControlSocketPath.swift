import Glibc
import RelaySystem

/// Where the agents' control sockets live by default.
///
/// `$RUNTIME_DIRECTORY` when systemd made one for the service (`RuntimeDirectory=relay`:
/// `/run/relay` for a system unit, `$XDG_RUNTIME_DIR/relay` for a user unit, so the same place
/// as without it); else `$XDG_RUNTIME_DIR/relay/` (private to the user and cleared at logout by
/// systemd-logind); else `/tmp/relay-$UID/` where there is no runtime directory (a serial
/// console, a container).
public enum ControlSocketPath {
    /// The directory holding the control sockets and the loopback framebuffer file.
    public static func runtimeDirectory(environment: [String: String], uid: UInt32) -> String {
        if let service = ServiceDirectory.runtime.path(in: environment) {
            return service
        }
        // Relative values are ignored, as the XDG base directory specification requires.
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/relay"
        }
        return "/tmp/relay-\(uid)"
    }

    /// The default control socket of an agent role: `wearable` → `…/relay/wearable.sock`.
    public static func defaultPath(role: String, environment: [String: String], uid: UInt32) -> String {
        runtimeDirectory(environment: environment, uid: uid) + "/\(role).sock"
    }

    /// The account the packaged system services run as (`User=relay`), whose sockets relayctl
    /// trusts as it trusts its own user's.
    public static let serviceUser = "relay"

    /// Where a packaged system service's control socket is: `/run/relay/ROLE.sock`
    /// (`RuntimeDirectory=relay`).
    public static func servicePath(role: String) -> String {
        "/run/\(serviceUser)/\(role).sock"
    }

    /// The socket relayctl addresses for `role` when none is given: the user's own agent's
    /// when one has a socket there, else a system service's when one does, else the user's
    /// (for the "not running" message).
    public static func clientPath(
        role: String, environment: [String: String], uid: UInt32, exists: (String) -> Bool = socketMayExist
    ) -> String {
        let own = defaultPath(role: role, environment: environment, uid: uid)
        if !exists(own), exists(servicePath(role: role)) { return servicePath(role: role) }
        return own
    }

    /// Whether something is at `path`, or may be: a directory this user may not search (a
    /// service's 0750 `/run/relay` seen from outside its group) counts, so that relayctl names
    /// that socket and says who may use it instead of "not running".
    public static func socketMayExist(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 || errno == EACCES
    }
}
