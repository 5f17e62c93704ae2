import Foundation
import PhoneAgent
import RelayControl
import RelayStore
import Synchronization

/// relay-phone's control commands (Docs/CONTROL.md): the delivered notifications, and acting on
/// one as the wearable later will, so the way back to the posting app can be driven now.
struct PhoneControl: Sendable {
    let server: NotificationServer
    let lock: PhoneLock
    let busName: String
    let started: ContinuousClock.Instant
    /// Set in monitor mode, where invoke, reply and dismiss go to (or are refused for) another server.
    var monitor: NotificationMonitor? = nil
    /// The link to the wearable: pairing and its status.
    let link: PhoneLink
    /// The phone's do not disturb: `relayctl dnd`.
    let doNotDisturb: DoNotDisturbSwitch

    func handle(_ request: PhoneRequest) -> ControlResponse {
        if let monitor, let response = monitor.handle(request) { return response }
        return switch request {
        case .status: status()
        case .delivered: .success(["notifications": .list(server.coordinator.delivered.map(Self.entry))])
        case .invoke(let id, let action):
            act(on: id) { (centre: inout NotificationCentre) throws(CentreError) in try centre.invoke(id, action: action) }
        case .reply(let id, let text, let action):
            // `action` picks among a rich notification's text-input actions (Docs/RICH-API.md).
            act(on: id) { (centre: inout NotificationCentre) throws(CentreError) in try centre.reply(id, text: text, action: action) }
        case .dismiss(let id):
            act(on: id) { (centre: inout NotificationCentre) throws(CentreError) in try centre.dismiss(id) }
        case .pair: pair()
        case .pairConfirm(let accepted): confirmPairing(accepted: accepted)
        case .unpair: unpair()
        case .reconnect: reconnect()
        // The manual override (Docs/PHONE.md): it wins over logind and the screensavers until cleared.
        case .lockOverride(let locked): overriding(locked)
        case .doNotDisturb(let change): doNotDisturb(change)
        }
    }

    /// Stored before it applies (through the committer, after every write queued before it),
    /// so that a restart keeps what relayctl was told. It applies in the committer's order too:
    /// of two overrides given at once, the one stored last is the one in force.
    private func overriding(_ locked: Bool?) -> ControlResponse {
        let lock = lock
        let values = Mutex<[String: ControlValue]>([:])
        do {
            try link.committer.submit({ db in try PhoneSchema.setLockOverride(db, locked) }, after: {
                lock.apply(.manual(override: locked))
                values.withLock { $0 = lock.values }
            }).waitBlocking()
        } catch {
            return .failure("could not store the lock override: \(error); the lock state is unchanged")
        }
        return .success(values.withLock { $0 })
    }

    /// `relayctl dnd on|off|status`: the manual source, stored before it applies (it holds
    /// across restarts until turned off or its time passes).
    private func doNotDisturb(_ change: DoNotDisturbChange) -> ControlResponse {
        let on: Bool
        let until: Date?
        switch change {
        case .status: return .success(doNotDisturb.values)
        case .on(let date): (on, until) = (true, date)
        case .off: (on, until) = (false, nil)
        }
        let doNotDisturb = doNotDisturb
        do {
            try link.committer.submit({ db in try PhoneSchema.setDoNotDisturb(db, on: on, until: until?.timeIntervalSince1970) }, after: {
                doNotDisturb.setManual(on: on, until: until)
            }).waitBlocking()
        } catch {
            return .failure("could not store do not disturb: \(error); it is unchanged")
        }
        return .success(doNotDisturb.values)
    }

    private func status() -> ControlResponse {
        .success(lock.values.merging(doNotDisturb.values) { current, _ in current }.merging([
            "role": .string("phone"),
            "transport": .string("loopback"),
            "server": .string(NotificationServer.busName),
            "bus": .string(busName),
            "link": .string("out of range"),
            "notifications": .int(server.coordinator.delivered.count),
            "uptimeSeconds": .int(Int((ContinuousClock.now - started).components.seconds)),
        ]) { $1 }.merging(monitor?.statusValues ?? ["mode": .string("server")]) { $1 }.merging(linkValues) { $1 })
    }

    /// Runs one of the user's actions on notification `id`.
    private func act(
        on id: UInt32, _ operation: (inout NotificationCentre) throws(CentreError) -> [NotificationSignal]
    ) -> ControlResponse {
        do {
            try server.coordinator.act(operation)
        } catch {
            return .failure(error.description)
        }
        return .success(["id": .int(Int(id))])
    }

    /// One notification in the `delivered` list.
    private static func entry(_ notification: DeliveredNotification) -> ControlValue {
        // Relay's own API adds the request's identifier; `app` is then the app id.
        let rich: [String: ControlValue] = notification.origin.rich.map { ["api": .string("rich"), "identifier": .string($0.identifier)] }
            ?? ["api": .string("freedesktop")]
        return .object(rich.merging([
            "id": .int(Int(notification.id)),
            "app": .string(notification.appName),
            "summary": .string(notification.content.title),
            "body": .string(notification.content.body),
            "sender": .string(notification.sender ?? ""),
            "actions": .list(notification.actions.map { .object(["key": .string($0.key), "label": .string($0.label)]) }),
            "reply": .int(notification.acceptsReply ? 1 : 0),
            "level": .string(notification.content.interruptionLevel.rawValue),
            "category": .string(notification.content.freedesktopCategory ?? ""),
        ]) { $1 })
    }
}
