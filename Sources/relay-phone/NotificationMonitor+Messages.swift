import PhoneAgent
import RelayDBus
import RelayFreedesktop
import RelayFreedesktopDBus

/// What the monitor captured, message by message, into the centre (Docs/PHONE.md, monitor mode).
extension NotificationMonitor {
    /// Hands one captured message to its handler; only the monitor's task calls this, in order.
    func capture(_ message: DBusMessage, _ calls: inout MonitoredCalls) {
        switch message.kind {
        case .methodCall: called(message, &calls)
        case .methodReturn, .error: answered(message, &calls)
        case .signal: signalled(message, &calls)
        }
    }

    /// Keeps a call to the server until its answer; calls to other servers of the interface, and
    /// calls whose caller wants no reply (whose id would never be known), are left alone.
    private func called(_ message: DBusMessage, _ calls: inout MonitoredCalls) {
        guard let caller = message.sender, !message.noReplyExpected,
            message.destination == Self.busName || message.destination == owner.withLock({ $0 })
        else { return }
        let call: MonitoredCalls.Call
        switch message.member {
        // Arguments the server will refuse anyway are not kept.
        case "Notify":
            guard let notify = try? NotifyCall.decode(arguments: message.arguments) else { return }
            call = .notify(notify)
        case "CloseNotification":
            guard let id = Self.notificationID(message.arguments.first) else { return }
            call = .close(id: id)
        default: return
        }
        if let dropped = calls.called(call, serial: message.serial, caller: caller) {
            log("relay-phone: monitor: no answer to \(dropped.caller)'s call \(dropped.serial) among the last \(calls.capacity); not waiting for it any more")
        }
    }

    private func answered(_ message: DBusMessage, _ calls: inout MonitoredCalls) {
        let serverName = owner.withLock { $0 }
        guard message.sender == serverName, let replySerial = message.replySerial, let caller = message.destination,
            let pending = calls.answered(replySerial: replySerial, caller: caller)
        else { return }
        if let error = message.error {
            log.warning("relay-phone: monitor: the notification server refused a call from \(caller): \(error)")
            return
        }
        switch pending.call {
        case .notify(let call):
            guard let id = Self.notificationID(message.arguments.first) else {
                log("relay-phone: monitor: the notification server answered Notify from \(caller) without an id (\(message.signature)); ignored")
                return
            }
            if calls.wasClosed(id, whileAnswering: pending) {
                log("relay-phone: monitor: notification \(id) from \(caller) was closed before the server answered its Notify; not kept")
                return
            }
            var recorded = true
            silently { centre in recorded = centre.record(call, id: id, sender: caller, now: .now) != nil }
            if !recorded {
                log("relay-phone: monitor: notification \(id) from \(caller) not kept: a notification of Relay's own API has that id")
            }
        case .close(let id):
            // The server's NotificationClosed follows and finds it gone.
            silently { centre in Self.closeServers(id, reason: .closedByCall, &centre) }
        }
    }

    private func signalled(_ message: DBusMessage, _ calls: inout MonitoredCalls) {
        if message.member == "NameOwnerChanged" {
            guard message.arguments.count == 3, case .string(let old) = message.arguments[1],
                case .string(let new) = message.arguments[2]
            else { return }
            ownerChanged(from: old, to: new, &calls)
            return
        }
        guard message.sender == owner.withLock({ $0 }), let id = Self.notificationID(message.arguments.first) else { return }
        switch message.member {
        case "NotificationClosed":
            let reason = (try? message.arguments.decode(1, as: UInt32.self)).flatMap(CloseReason.init) ?? .undefined
            silently { centre in Self.closeServers(id, reason: reason, &centre) }
            calls.closedBeforeAnswer(id)
        case "ActionInvoked":
            let key = (try? message.arguments.decode(1, as: String.self)) ?? "?"
            log("relay-phone: monitor: action '\(key)' invoked on notification \(id) at the notification server")
        default: return
        }
    }

    /// Closes the monitored server's notification `id`; a notification of Relay's own API that
    /// happens to have the same id is not the server's to close. Returns whether it was there.
    @discardableResult
    private static func closeServers(_ id: UInt32, reason: CloseReason, _ centre: inout NotificationCentre) -> Bool {
        guard centre.delivered.isFreedesktop(id) else { return false }
        _ = centre.close(id, reason: reason)
        return true
    }

    /// What relay-phone delivered itself in an earlier run, as the server: those ids mean nothing
    /// to the server now monitored, so they are dropped without signals, and their expiry timers
    /// go (in monitor mode the server times its own).
    func dropRestored() {
        server.coordinator.stop()
        var dropped = 0
        silently { centre in
            let ids = centre.list.filter { $0.origin == .freedesktop }.map(\.id)
            dropped = ids.count
            for id in ids { _ = centre.close(id, reason: .undefined) }
        }
        if dropped > 0 {
            log("relay-phone: monitor: \(dropped) notification(s) relay-phone delivered as the server in an earlier run were dropped: \(Self.busName) belongs to another server now")
        }
    }

    /// A new owner (or none) has other ids: what the old one delivered is dropped, not closed,
    /// because that server is gone and nobody will act on its ids again.
    private func ownerChanged(from old: String, to new: String, _ calls: inout MonitoredCalls) {
        owner.withLock { $0 = new.isEmpty ? nil : new }
        calls.removeAll()
        var dropped = 0
        silently { centre in
            let ids = centre.list.map(\.id)
            dropped = ids.count
            for id in ids { _ = centre.close(id, reason: .undefined) }
        }
        if new.isEmpty {
            log(
                "relay-phone: monitor: the notification server \(old) left \(Self.busName) (\(dropped) notification(s) dropped); "
                    + "relay-phone keeps monitoring and follows the next server to take the name (restart relay-phone to serve it itself)")
        } else if old.isEmpty {
            log("relay-phone: monitor: \(new) now owns \(Self.busName); following it")
        } else {
            log("relay-phone: monitor: \(new) took \(Self.busName) from \(old) (\(dropped) notification(s) dropped); following it")
        }
    }
}
