import Dispatch
import PhoneAgent
import RelayControl
import RelayDBus
import Synchronization

/// The control commands that differ in monitor mode: relay-phone does not own the notifications,
/// the server it monitors does.
extension NotificationMonitor {
    /// `mode` and `serverOwner` for `status`.
    var statusValues: [String: ControlValue] {
        ["mode": .string("monitor"), "serverOwner": .string(owner.withLock { $0 } ?? "none")]
    }

    /// Answers `invoke`, `reply` and `dismiss` of a notification the monitored server holds; `nil`
    /// for everything that works as in server mode (other commands, Relay's own API's notifications,
    /// unknown ids). Runs on the control thread, which may wait (it is not one of the tasks' threads).
    func handle(_ request: PhoneRequest) -> ControlResponse? {
        let id: UInt32
        switch request {
        case .invoke(let target, _), .reply(let target, _, _), .dismiss(let target): id = target
        case .status, .delivered, .lockOverride, .pair, .pairConfirm, .unpair, .reconnect, .doNotDisturb, .mutes, .quietHours, .filter, .why, .history, .replies: return nil
        }
        guard server.coordinator.delivered.contains(where: { $0.id == id && $0.origin == .freedesktop }) else { return nil }
        return switch request {
        case .invoke, .reply:
            .failure(
                "monitor mode cannot invoke actions on another server: \(owner.withLock { $0 } ?? "another server") owns "
                    + "\(Self.busName), and the specification gives no method to invoke an action or send a reply there; "
                    + "act on the notification where that server shows it, or stop that server and restart relay-phone "
                    + "to serve \(Self.busName) itself")
        case .dismiss: dismiss(id)
        case .status, .delivered, .lockOverride, .pair, .pairConfirm, .unpair, .reconnect, .doNotDisturb, .mutes, .quietHours, .filter, .why, .history, .replies: nil
        }
    }

    /// Closes the notification at the server (`CloseNotification` over the ordinary connection),
    /// then drops it from the centre; the server's `NotificationClosed` reaches the apps.
    private func dismiss(_ id: UInt32) -> ControlResponse {
        let outcome = Self.waitFor { [self] in try await closeNotification(id) }
        if case .failure(let error) = outcome {
            return .failure(
                "the notification server (\(owner.withLock { $0 } ?? "gone now")) did not close notification \(id): \(error); "
                    + "it stays delivered; try again, or close it where that server shows it")
        }
        silently { centre in _ = centre.close(id, reason: .dismissedByUser) }
        return .success(["id": .int(Int(id))])
    }

    /// Asks the server to close a notification the wearable dismissed (`CloseNotification`),
    /// without waiting: the centre and the wearable have let it go already; the server's
    /// `NotificationClosed` reaches the app.
    func closeAtServer(_ id: UInt32) {
        Task { [self] in
            do {
                try await closeNotification(id)
            } catch {
                log.warning("relay-phone: the notification server did not close notification \(id), dismissed on the wearable: \(error); close it where that server shows it")
            }
        }
    }

    /// `CloseNotification` at the server that owns the name, over the ordinary connection.
    private func closeNotification(_ id: UInt32) async throws {
        _ = try await ordinary.call(
            destination: Self.busName, path: NotificationServer.path, interface: Self.busName,
            method: "CloseNotification", arguments: [.uint32(id)], timeout: .seconds(5))
    }

    /// Runs `operation` in a task and blocks this (non-task) thread until it ends.
    private static func waitFor<T: Sendable>(
        _ operation: @escaping @Sendable () async throws -> T
    ) -> Result<T, any Error> {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            box.result.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return box.result.withLock { $0 } ?? .failure(CancellationError())
    }
}

/// Carries a task's result to the thread waiting for it.
private final class ResultBox<T: Sendable>: Sendable {
    let result = Mutex<Result<T, any Error>?>(nil)
}
