public import ArgumentParser
public import Foundation
public import RelayConfig
import Glibc

/// An agent's settings as loaded: typed, with where each value came from, and the file read.
public struct LoadedConfiguration<Settings: AgentConfiguration>: Sendable {
    /// The settings: flags over the file over the defaults.
    public let settings: Settings
    /// Every value with its origin (default, `file:line:column` or the flag), for messages.
    public let values: ConfigValues
    /// The file that was looked for.
    public let location: ConfigurationLocation
    /// Whether that file existed and was read.
    public let fileWasRead: Bool

    /// One line for the agent's log saying which file was used, if any.
    public var summary: String {
        fileWasRead
            ? "configuration from \(location.path)"
            : "no configuration file at \(location.path); flags and defaults apply"
    }
}

extension AgentOptions {
    /// Finds and reads the agent's configuration file (`--config`, `$RELAY_CONFIG`, else the
    /// XDG default) and puts `flags` over it. On any problem it writes every problem on
    /// standard error, each starting with `file:line:column` or the flag, and throws exit
    /// status 78 (`ConfigurationRefusal.exitStatus`), so the agent stops before it opens a
    /// socket or a bus.
    public func loadConfiguration<Settings: AgentConfiguration>(
        _ type: Settings.Type, flags: ConfigurationFlags, executable: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(ExitCode) -> LoadedConfiguration<Settings> {
        // `--print-default-config`: the file, and nothing started.
        if printDefaultConfig {
            FileHandle.standardOutput.write(Data(Settings.schema.defaultFileText.utf8))
            throw .success
        }
        let location = ConfigurationLocation.find(
            role: Settings.schema.role, explicitPath: config, environment: environment, currentDirectory: currentDirectory)
        do {
            let file = try location.load()
            let values = try Settings.schema.values(file: file, flags: flags, currentDirectory: currentDirectory)
            return LoadedConfiguration(settings: Settings(values), values: values, location: location, fileWasRead: file != nil)
        } catch {
            throw ConfigurationRefusal.refuse(error.description, executable: executable)
        }
    }
}

/// How an agent stops when its settings cannot be used.
public enum ConfigurationRefusal {
    /// The exit status of an agent stopped by its configuration: 78, `EX_CONFIG` of
    /// sysexits.h, so that a service can tell it from a failure that a restart may cure
    /// (systemd: `RestartPreventExitStatus=78`).
    public static let exitStatus = ExitCode(EX_CONFIG)

    /// Writes `problems` (one per line, each naming where it was written and the key) and
    /// what to do on standard error, and returns ``exitStatus`` for the agent to throw.
    public static func refuse(_ problems: String, executable: String) -> ExitCode {
        let advice = "\(executable): not started; correct the configuration above "
            + "(every key: Docs/CONFIGURATION.md; every flag: \(executable) --help)"
        FileHandle.standardError.write(Data((problems + "\n" + advice + "\n").utf8))
        return exitStatus
    }
}
