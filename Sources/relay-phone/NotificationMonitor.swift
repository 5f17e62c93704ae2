import PhoneAgent
import RelayCLI
import RelayDBus
import Synchronization

/// relay-phone beside another notification server (monitor mode, Docs/PHONE.md): a connection of
/// its own turned into a bus monitor watches the `Notify` and `CloseNotification` calls to that
/// server, the server's answers and its `NotificationClosed` / `ActionInvoked` signals, and keeps
/// the centre in step under the server's ids. A monitor never sends anything, so it never answers
/// a call; what relay-phone says to the server (`CloseNotification` for a dismissal) goes over the
/// agent's ordinary connection.
final class NotificationMonitor: Sendable {
    static let busName = NotificationServer.busName

    /// Calls, answers and signals of `org.freedesktop.Notifications`, and changes of its owner.
    /// A well-known `sender` matches what its current primary owner sends.
    static let rules: [DBusMatchRule] = [
        DBusMatchRule(kind: .methodCall, interface: busName, member: "Notify"),
        DBusMatchRule(kind: .methodCall, interface: busName, member: "CloseNotification"),
        DBusMatchRule(kind: .methodReturn, sender: busName),
        DBusMatchRule(kind: .error, sender: busName),
        .signal(sender: busName, interface: busName, member: "NotificationClosed"),
        .signal(sender: busName, interface: busName, member: "ActionInvoked"),
        .nameOwnerChanged(name: busName),
    ]

    let ordinary: DBusConnection
    let server: NotificationServer
    let log: AgentLogSink
    /// The unique name of the server followed; `nil` while nobody owns the name.
    let owner: Mutex<String?>
    private let monitor: DBusConnection
    private let stopping = Atomic<Bool>(false)
    private let lostConnection = Atomic<Bool>(false)
    private let processing = Mutex<Task<Void, Never>?>(nil)

    private init(
        monitor: DBusConnection, ordinary: DBusConnection, owner: String, server: NotificationServer,
        log: AgentLogSink
    ) {
        self.monitor = monitor
        self.ordinary = ordinary
        self.owner = Mutex(owner)
        self.server = server
        self.log = log
    }

    /// Starts monitoring the current owner of the name on `bus`; `server` only holds the centre (its
    /// interface is not exported in this mode). Returns `nil` if nobody owns the name any more, so the
    /// caller can try to take it. `lost` runs if the monitor's connection ends before ``stop()``.
    /// Messages captured and not yet handled, at most.
    static let backlog = 1_024

    static func start(
        bus: DBusConnection.Bus, ordinary: DBusConnection, server: NotificationServer,
        log: AgentLogSink, lost: @escaping @Sendable () -> Void
    ) async throws -> NotificationMonitor? {
        let connection = try await DBusConnection.connect(to: bus)
        let messages: AsyncStream<DBusMessage>
        do {
            // Bounded: a client flooding the desktop's server (each Notify may carry megabytes of
            // image-data) must not grow relay-phone's memory faster than it commits; past the
            // bound, messages are dropped until it catches up, and those notifications are not
            // mirrored.
            messages = try await connection.becomeMonitor(matching: rules, bufferingPolicy: .bufferingOldest(Self.backlog))
        } catch {
            await connection.close()
            throw PhoneError(
                "another notification server owns \(busName), and the bus refused to let relay-phone monitor it (\(error)); "
                    + "stop that server, or run relay-phone as the bus's user, and start it again")
        }
        // Asked only now, so a change of owner from here on is in the monitored stream.
        let owner: String?
        do {
            owner = try await ordinary.nameOwner(of: busName)
        } catch {
            await connection.close()
            throw error
        }
        guard let owner else {
            await connection.close()
            return nil
        }
        let monitor = NotificationMonitor(monitor: connection, ordinary: ordinary, owner: owner, server: server, log: log)
        monitor.processing.withLock { task in
            task = Task {
                var calls = MonitoredCalls()
                for await message in messages { monitor.capture(message, &calls) }
                guard !monitor.stopping.load(ordering: .relaxed) else { return }
                monitor.lostConnection.store(true, ordering: .relaxed)
                log("relay-phone: the monitor's connection to the bus ended")
                lost()
            }
        }
        return monitor
    }

    /// `monitor (org.freedesktop.Notifications is owned by :1.N)`, for the ready line.
    var mode: String {
        "monitor (\(Self.busName) is owned by \(owner.withLock { $0 } ?? "nobody now"))"
    }

    /// Whether the monitor's connection ended on its own (the bus went away).
    var lost: Bool { lostConnection.load(ordering: .relaxed) }

    /// Closes the monitor's connection and waits until every message taken is handled.
    func stop() async {
        stopping.store(true, ordering: .relaxed)
        await monitor.close()
        await processing.withLock { $0 }?.value
    }

    /// Changes the centre without emitting the signals it returns: the server they would repeat
    /// emits its own, and only it answers the apps.
    func silently(_ body: (inout NotificationCentre) -> Void) {
        server.coordinator.act { centre in
            body(&centre)
            return []
        }
    }

    /// An id as servers send it: `u` by the specification, `i` by some (python-dbusmock declares
    /// `i`). Never 0, which the specification keeps for "no notification".
    static func notificationID(_ value: DBusValue?) -> UInt32? {
        switch value {
        case .uint32(let id)? where id > 0: id
        case .int32(let id)? where id > 0: UInt32(id)
        default: nil
        }
    }
}
