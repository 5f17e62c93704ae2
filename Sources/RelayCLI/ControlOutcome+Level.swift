public import Logging
public import RelayControl

extension ControlOutcome {
    /// How loudly the agent logs this connection: a routine read (`status`, `notifications`,
    /// `delivered`, polled by scripts and relayctl's waits) at debug, another request at info, a
    /// request that failed or a caller turned away at warning, the socket failing at error.
    public var logLevel: Logger.Level {
        switch self {
        case .served(_, let command, let response):
            !response.ok ? .warning : ["status", "notifications", "delivered"].contains(command) ? .debug : .info
        case .refused, .malformed: .warning
        case .failed: .error
        }
    }
}
