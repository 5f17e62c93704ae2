import PhoneAgent
import RelayControl

/// relay-phone's control commands (Docs/CONTROL.md): the delivered notifications, and acting on
/// one as the wearable later will, so the way back to the posting app can be driven now.
struct PhoneControl: Sendable {
    let server: NotificationServer
    let lock: PhoneLock
    let busName: String
    let started: ContinuousClock.Instant

    func handle(_ request: ControlRequest) -> ControlResponse {
        switch request.command {
        case "status": status()
        case "delivered": .success(["notifications": .list(server.delivered.map(Self.entry))])
        case "invoke": act(request, needs: request.action, "invoke needs \"id\" and \"action\"") { id, action in
            { (centre: inout NotificationCentre) throws(CentreError) in try centre.invoke(id, action: action) }
        }
        case "reply": act(request, needs: request.text, "reply needs \"id\" and \"text\"") { id, text in
            { (centre: inout NotificationCentre) throws(CentreError) in try centre.reply(id, text: text) }
        }
        case "dismiss": act(request, needs: "", "dismiss needs \"id\"") { id, _ in
            { (centre: inout NotificationCentre) throws(CentreError) in try centre.dismiss(id) }
        }
        // The manual override (Docs/PHONE.md): it wins over logind and the screensavers until cleared.
        case "lock": overriding(true)
        case "unlock": overriding(false)
        case "lock-auto": overriding(nil)
        default:
            .failure(
                "unknown command '\(request.command)'; relay-phone knows: status, delivered, invoke, reply, dismiss, lock, unlock, lock-auto")
        }
    }

    private func overriding(_ locked: Bool?) -> ControlResponse {
        lock.apply(.manual(override: locked))
        return .success(lock.values)
    }

    private func status() -> ControlResponse {
        .success(lock.values.merging([
            "role": .string("phone"),
            "transport": .string("loopback"),
            "server": .string(NotificationServer.busName),
            "bus": .string(busName),
            "link": .string("out of range"),
            "notifications": .int(server.delivered.count),
            "uptimeSeconds": .int(Int((ContinuousClock.now - started).components.seconds)),
        ]) { $1 })
    }

    /// Runs one of the user's actions on notification `request.id`; `argument` is what it needs besides.
    private func act(
        _ request: ControlRequest, needs argument: String?, _ usage: String,
        _ operation: (UInt32, String) -> (inout NotificationCentre) throws(CentreError) -> [NotificationSignal]
    ) -> ControlResponse {
        guard let id = request.id, let argument else { return .failure(usage) }
        do {
            try server.act(operation(id, argument))
        } catch {
            return .failure(error.description)
        }
        return .success(["id": .int(Int(id))])
    }

    /// One notification in the `delivered` list.
    private static func entry(_ notification: DeliveredNotification) -> ControlValue {
        .object([
            "id": .int(Int(notification.id)),
            "app": .string(notification.appName),
            "summary": .string(notification.content.title),
            "body": .string(notification.content.body),
            "sender": .string(notification.sender ?? ""),
            "actions": .list(notification.actions.map { .object(["key": .string($0.key), "label": .string($0.label)]) }),
            "reply": .int(notification.acceptsReply ? 1 : 0),
        ])
    }
}
