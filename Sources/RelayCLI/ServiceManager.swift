public import Foundation
import RelaySystem

/// What an agent tells systemd under a `Type=notify` unit: that it serves (`READY=1`) and that
/// it is stopping (`STOPPING=1`). Outside such a unit it does nothing. A message that cannot be
/// sent is logged as a warning, never thrown: the agent works the same without it.
public struct ServiceManager: Sendable {
    /// The agent's name, for the log.
    public let agent: String
    private let environment: [String: String]
    private let log: AgentLogSink

    /// A notifier for `agent` (`relay-phone`, `relay-wearable`), reading `$NOTIFY_SOCKET` from `environment`.
    public init(agent: String, environment: [String: String] = ProcessInfo.processInfo.environment, log: AgentLogSink = .standardError) {
        self.agent = agent
        self.environment = environment
        self.log = log
    }

    /// The agent serves; `status` is what `systemctl status` shows beside it.
    public func ready(_ status: String) {
        send("READY=1\nSTATUS=\(status)", what: "it is ready")
    }

    /// The agent is on its way out (a signal, a lost bus, a storage failure).
    public func stopping() {
        send("STOPPING=1", what: "it is stopping")
    }

    private func send(_ state: String, what: String) {
        if let error = ServiceNotification.send(state, environment: environment) {
            log.warning("\(agent): could not tell systemd \(what): \(error)")
        }
    }
}
