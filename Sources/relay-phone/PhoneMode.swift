import RelayCLI
import RelayDBus

/// How relay-phone takes notifications, chosen by itself at start (Docs/PHONE.md): as the server
/// when `org.freedesktop.Notifications` is free, else as a monitor beside the server that owns it.
enum PhoneMode {
    /// Takes the name without queueing (a server waiting in line would never see a notification),
    /// or starts monitoring its owner. Returns the monitor, or `nil` when relay-phone is the server.
    /// The server's interface must be exported on `connection` already, so the first call after the
    /// name is taken finds it; in monitor mode it is withdrawn, as a monitor answers nobody.
    static func start(
        on connection: DBusConnection, bus: DBusConnection.Bus, server: NotificationServer, stop: StopRequest,
        log: AgentLogSink
    ) async throws -> NotificationMonitor? {
        // The owner can leave between the refusal and the question who it is: then try again.
        for _ in 1...3 {
            switch try await connection.requestName(NotificationServer.busName, flags: .doNotQueue) {
            case .primaryOwner, .alreadyOwner:
                return nil
            case .inQueue, .exists:
                server.coordinator.isMonitoring.store(true, ordering: .relaxed)
                let monitor = try await NotificationMonitor.start(
                    bus: bus, ordinary: connection, server: server, log: log, lost: { stop.request() })
                if let monitor {
                    connection.unexport(path: NotificationServer.path)
                    server.coordinator.closeAtMonitoredServer.set { id in monitor.closeAtServer(id) }
                    monitor.dropRestored()
                    return monitor
                }
                server.coordinator.isMonitoring.store(false, ordering: .relaxed)
            }
        }
        throw PhoneError(
            "\(NotificationServer.busName) changed owners three times while relay-phone started; start relay-phone again")
    }
}
