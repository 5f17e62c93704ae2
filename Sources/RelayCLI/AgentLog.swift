public import Foundation
public import Logging
import Synchronization

/// The agents' log: one line per event on standard error, `label: message key=value …`,
/// which journald stores as is under systemd. Info and above by default; `RELAY_LOG=debug`
/// (or trace, notice, warning, error) changes the level.
public enum AgentLog {
    /// A logger writing to standard error.
    public static func logger(label: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Logger {
        var handler = LineHandler(label: label)
        if let name = environment["RELAY_LOG"], let level = Logger.Level(rawValue: name.lowercased()) {
            handler.logLevel = level
        }
        return Logger(label: label) { _ in handler }
    }

    struct LineHandler: LogHandler {
        let label: String
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            // Warnings and errors say so; an info line is just what happened.
            var line = event.level >= .warning ? "\(label): \(event.level): \(event.message)" : "\(label): \(event.message)"
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            for key in merged.keys.sorted() {
                line += " \(key)=\(merged[key].map { "\($0)" } ?? "")"
            }
            StandardError.write(line + "\n")
        }
    }
}

/// Whole lines to standard error, never interleaved between threads.
enum StandardError {
    private static let lock = Mutex(())

    static func write(_ text: String) {
        lock.withLock { _ in FileHandle.standardError.write(Data(text.utf8)) }
    }
}
