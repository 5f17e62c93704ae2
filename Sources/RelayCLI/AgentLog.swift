public import Foundation
public import Logging
import Glibc
import Synchronization

/// The agents' log: one line per event on standard error, `label: message key=value …`.
/// Info and above by default; `RELAY_LOG=debug` (or trace, notice, warning, error) changes the
/// level. Under systemd, when standard error is the journal (`$JOURNAL_STREAM` names it), each
/// line starts with its syslog priority (`<4>` for a warning), which journald strips and stores
/// as the entry's priority, so `journalctl -p warning` finds the problems.
public enum AgentLog {
    /// A logger writing to standard error.
    public static func logger(label: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Logger {
        var handler = LineHandler(label: label)
        handler.logLevel = threshold(environment)
        return Logger(label: label) { _ in handler }
    }

    /// The level below which lines are dropped: `$RELAY_LOG`, else info.
    static func threshold(_ environment: [String: String]) -> Logger.Level {
        environment["RELAY_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .info
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
            StandardError.write(line, level: event.level)
        }
    }
}

/// The agents' plain log lines, each with its level: `log("…")` is an info line,
/// `log.warning("…")` a problem the agent works around, `log.error("…")` one it stops for,
/// `log.debug("…")` a routine line (a `status` poll) shown only with `RELAY_LOG=debug`.
public struct AgentLogSink: Sendable {
    private let write: @Sendable (Logger.Level, String) -> Void

    /// A sink with its own writer (tests collect lines with one).
    public init(_ write: @escaping @Sendable (Logger.Level, String) -> Void) {
        self.write = write
    }

    /// Standard error, at `$RELAY_LOG`'s level, with journald priorities when it is the journal.
    public static let standardError: AgentLogSink = {
        let threshold = AgentLog.threshold(ProcessInfo.processInfo.environment)
        return AgentLogSink { level, line in
            if level >= threshold { StandardError.write(line, level: level) }
        }
    }()

    /// An info line.
    public func callAsFunction(_ line: String) { write(.info, line) }
    /// A line at `level`.
    public func callAsFunction(_ line: String, level: Logger.Level) { write(level, line) }
    /// A routine line.
    public func debug(_ line: String) { write(.debug, line) }
    /// A problem the agent works around.
    public func warning(_ line: String) { write(.warning, line) }
    /// A problem the agent stops for, or a request it could not carry out.
    public func error(_ line: String) { write(.error, line) }
}

/// Whole lines to standard error, never interleaved between threads.
enum StandardError {
    private static let lock = Mutex(())
    /// Whether standard error is the journal, read once.
    private static let isJournal = JournalStream.isStandardError(ProcessInfo.processInfo.environment)

    /// Writes `text` (one or more lines) at `level`.
    static func write(_ text: String, level: Logger.Level) {
        let lines = isJournal
            ? text.split(separator: "\n", omittingEmptySubsequences: false).map { "<\(JournalStream.priority(level))>\($0)" }.joined(separator: "\n")
            : text
        lock.withLock { _ in FileHandle.standardError.write(Data((lines + "\n").utf8)) }
    }
}

/// systemd's stream to the journal (`systemd.exec(5)`, `$JOURNAL_STREAM`).
public enum JournalStream {
    /// Whether standard error is the stream `$JOURNAL_STREAM` names (`DEVICE:INODE`), so that
    /// a redirected standard error (a file, a pipe) never gets the prefixes.
    public static func isStandardError(_ environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return stream == "\(status.st_dev):\(status.st_ino)"
    }

    /// The syslog priority of a level: debug 7 … critical 2 (`sd-daemon(3)`'s `<N>` prefixes).
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
