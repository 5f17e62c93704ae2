public import Foundation
import RelaySystem

/// Where an agent keeps its state: keys and database.
///
/// systemd's `StateDirectory=` sets `$STATE_DIRECTORY` (the first of its paths, which must be
/// absolute: a relative value is not systemd's and is ignored); otherwise the XDG state home
/// (`$XDG_STATE_HOME`, else `~/.local/state`) with a folder per role. The folder is
/// created with mode 0700, and an existing one that others can read is refused.
public struct StateDirectory: Sendable, Hashable {
    /// The folder's path.
    public let path: String

    /// Uses `path` as the state directory.
    public init(path: String) {
        self.path = path
    }

    /// The default for an agent, from the environment.
    public static func resolve(role: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> StateDirectory {
        if let service = ServiceDirectory.state.path(in: environment) {
            return StateDirectory(path: service)
        }
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return StateDirectory(path: base + "/relay/" + role)
    }

    /// Creates the folder (mode 0700) if needed and checks that only its owner can use it.
    public func prepare() throws(StoreError) {
        try PrivateFiles.ensureDirectory(path)
    }

    /// The path of a file in the folder.
    public func file(_ name: String) -> String {
        path + "/" + name
    }
}
