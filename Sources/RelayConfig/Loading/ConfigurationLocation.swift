import Foundation
import RelaySystem

/// Which file an agent reads: `--config PATH`, else `$RELAY_CONFIG`, else `ROLE.toml` in
/// `$CONFIGURATION_DIRECTORY` (a systemd service's `ConfigurationDirectory=relay`: `/etc/relay`),
/// else `$XDG_CONFIG_HOME/relay/ROLE.toml` (`~/.config/relay/ROLE.toml` without it).
/// A missing default file means "all defaults"; a missing named file is an error.
public struct ConfigurationLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public let path: String
    /// Whether the user named the file (flag or environment), so it must exist.
    public let isExplicit: Bool

    /// A location.
    public init(path: String, isExplicit: Bool) {
        self.path = path
        self.isExplicit = isExplicit
    }

    /// The file for `role` (`phone`, `wearable`); relative paths are taken from `currentDirectory`.
    public static func find(
        role: String, explicitPath: String?, environment: [String: String], currentDirectory: String
    ) -> ConfigurationLocation {
        if let named = explicitPath ?? environment["RELAY_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return ConfigurationLocation(path: ConfigRule.absolute(named, base: currentDirectory), isExplicit: true)
        }
        if let service = ServiceDirectory.configuration.path(in: environment) {
            return ConfigurationLocation(path: (service.hasSuffix("/") ? service : service + "/") + "\(role).toml", isExplicit: false)
        }
        // Relative values are ignored, as the XDG base directory specification requires.
        let base: String
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
            base = configHome
        } else {
            base = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config"
        }
        return ConfigurationLocation(path: (base.hasSuffix("/") ? base : base + "/") + "relay/\(role).toml", isExplicit: false)
    }

    /// The file, or `nil` when it is the default one and does not exist.
    public func load(limits: TOMLLimits = .standard) throws(ConfigurationError) -> ConfigurationFile? {
        if !isExplicit, !FileManager.default.fileExists(atPath: path) { return nil }
        return try ConfigurationFile.load(path: path, limits: limits)
    }

    /// The path, and whether it was named or is the default.
    public var description: String { isExplicit ? path : "\(path) (default)" }
}
