import Foundation
import PhoneAgent
import RelayCLI
import RelayControl
import struct RelayCore.DoNotDisturb
import struct RelayCore.Mute
import struct RelayCore.QuietHours
import struct RelayCore.SharedPreferences
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
    /// The phone's do not disturb: `relayctl dnd`, and the mutes: `relayctl mutes`.
    let doNotDisturb: DoNotDisturbSwitch
    /// Stores the shared wishes and sends their changes to the wearable.
    let mirror: MirrorCoordinator
    /// The filter rules: `relayctl filter`.
    let filterRules: FilterRuleBook

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
        case .mutes(let change): mutes(change)
        case .quietHours(let change): quietHours(change)
        case .filter(let request): filter(request)
        case .why(let id): why(id)
        case .history(let app): history(app: app)
        case .replies(let change): replies(change)
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

    /// `relayctl dnd on|off|status`: the manual source, shared with the wearable, stored before
    /// it applies (it holds across restarts until turned off or its time passes).
    private func doNotDisturb(_ change: DoNotDisturbChange) -> ControlResponse {
        let value: SharedPreferences.ManualDoNotDisturb
        switch change {
        case .status: return .success(doNotDisturb.values)
        case .on(let until):
            if let problem = Mute.endProblem("do not disturb", until: until, at: Date(), instead: "turn it on until turned off (relayctl dnd on)") {
                return .failure(problem)
            }
            value = .on(until: until)
        case .off: value = .off
        }
        let what = if case .on(let until) = value { "\(DoNotDisturb(source: .manual, until: until))" } else { "do not disturb is off (by hand)" }
        if let failure = changePreferences(what, { $0.setDoNotDisturb(value, at: Date()) }) { return failure }
        return .success(doNotDisturb.values)
    }

    /// `relayctl mutes [add|remove]`: shared with the wearable, stored before they apply. A thread
    /// is named by its identifier, which the phone turns into the key both devices know it by.
    private func mutes(_ change: MuteChange) -> ControlResponse {
        switch change {
        case .list: break
        case .add(let app, let thread, let until):
            if let problem = Mute.problem(until: until, at: Date()) { return .failure(problem) }
            let scope: Mute.Scope
            switch threadScope(app: app, thread: thread) {
            case .success(let found): scope = found
            case .failure(let failure): return failure.response
            }
            if let failure = changePreferences("\(Mute(scope, until: until))", { $0.mute(scope, until: until, at: Date()) }) { return failure }
        case .remove(let app, let thread):
            let scope: Mute.Scope
            switch threadScope(app: app, thread: thread) {
            case .success(let found): scope = found
            case .failure(let failure): return failure.response
            }
            guard doNotDisturb.preferences.activeMutes(at: Date()).contains(where: { $0.scope == scope }) else {
                return .failure("\(thread.map { "thread \"\($0)\" of " } ?? "")\"\(app)\" is not muted; `relayctl mutes` lists the mutes")
            }
            if let failure = changePreferences("un\(Mute(scope))", { $0.unmute(scope, at: Date()) }) { return failure }
        }
        return .success(["mutes": .list(doNotDisturb.preferences.activeMutes(at: Date()).map { $0.controlValue { key in UInt64(key).flatMap(mirror.threadName(ofKey:)) ?? key } })])
    }

    /// `relayctl quiet-hours set|off|status`: the quiet hours the wearable keeps, set here in
    /// place of its configured ones (Docs/POLICY.md).
    private func quietHours(_ change: QuietHoursChange) -> ControlResponse {
        let hours: QuietHours?
        switch change {
        case .status: return .success(doNotDisturb.values)
        case .off: hours = nil
        case .set(let spec):
            guard (0..<1440).contains(spec.start), (0..<1440).contains(spec.end) else {
                return .failure("quiet hours start and end at a time of day (HH:MM); \(spec.start) and \(spec.end) minutes are not")
            }
            guard !spec.weekdays.isEmpty, spec.weekdays.allSatisfy((1...7).contains) else {
                return .failure("quiet hours need at least one weekday (sun … sat)")
            }
            guard let zone = TimeZone(identifier: spec.timeZone) else {
                return .failure("\"\(spec.timeZone)\" is not a time zone; give an IANA name such as Europe/Berlin (timedatectl list-timezones lists them)")
            }
            hours = QuietHours(start: spec.start, end: spec.end, weekdays: Set(spec.weekdays), timeZone: zone)
        }
        let what = hours.map { "quiet hours \($0), for the wearable" } ?? "no quiet hours on the wearable"
        if let failure = changePreferences(what, { $0.setQuietHours(hours, at: Date()) }) { return failure }
        return .success(doNotDisturb.values)
    }

    /// A failure to answer with.
    private struct Refusal: Error {
        let response: ControlResponse
    }

    /// What `app` and `thread` name: the app, or a thread the wearable knows.
    private func threadScope(app: String, thread: String?) -> Result<Mute.Scope, Refusal> {
        guard let thread else { return .success(.app(app)) }
        guard let key = mirror.threadKey(app: app, thread: thread) else {
            return .failure(Refusal(response: .failure(
                "no notification of thread \"\(thread)\" from \"\(app)\" has reached the wearable yet, so it has no name there to mute; "
                    + "mute the app, or the thread once one of its notifications has come")))
        }
        return .success(.thread(app: app, thread: String(key)))
    }

    /// Changes the shared wishes, stores the change and sends it to the wearable; a failure to
    /// answer with, or `nil`.
    private func changePreferences(_ what: String, _ body: (inout SharedPreferences) -> SharedPreferences) -> ControlResponse? {
        do {
            try server.coordinator.changePreferences { doNotDisturb.changePreferences(what, body) }
        } catch {
            return .failure("could not store the change (\(error)); it is not in force after a restart")
        }
        return nil
    }

    private func status() -> ControlResponse {
        .success(lock.values.merging(doNotDisturb.values) { current, _ in current }.merging(filterRules.values) { current, _ in current }.merging([
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
