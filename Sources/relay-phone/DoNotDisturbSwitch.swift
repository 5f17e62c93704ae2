import Foundation
import PhoneAgent
import RelayCLI
import RelayControl
import RelayCore
import RelayDBus
import Synchronization

/// The phone's do not disturb in the agent (`PhoneDoNotDisturb` behind a lock) with its bus
/// side, as KDE Plasma's notification server has it: `Inhibit(desktop_entry, reason, hints)`
/// returns a cookie, `UnInhibit(cookie)` releases it (a cookie that is not the caller's is
/// ignored, as an unknown one is), an inhibitor that leaves the bus releases all of its own,
/// and the `Inhibited` property says whether do not disturb is on from any source. `relayctl
/// dnd` is the manual source. Read by the mirror at each change; called from the bus thread, a
/// task watching departures and the control thread.
final class DoNotDisturbSwitch: Sendable {
    private let state: Mutex<PhoneDoNotDisturb>
    private let log: AgentLogSink
    /// Tells the bus that `Inhibited` changed; set once the interface is exported.
    private let changed = Mutex<(@Sendable (Bool) -> Void)?>(nil)

    /// Off but for the stored wishes (a manual do not disturb among them).
    init(preferences: SharedPreferences, log: AgentLogSink) {
        state = Mutex(PhoneDoNotDisturb(preferences: preferences))
        self.log = log
    }

    /// Do not disturb as it stands now.
    func current() -> DoNotDisturb? { state.withLock { $0.current(at: Date()) } }

    /// What the mirror holds alerts back for now: do not disturb and the mutes.
    func policy() -> AlertPolicy { state.withLock { $0.policy(at: Date()) } }

    /// The wishes shared with the wearable, as they are.
    var preferences: SharedPreferences { state.withLock { $0.preferences } }

    /// Whether do not disturb is on from any source (the `Inhibited` property). A manual one that
    /// ends by its time is read as off from then on, without a change signal.
    var isInhibited: Bool { current() != nil }

    /// Changes the state and tells the bus when `Inhibited` changed. The signal is emitted with
    /// the lock held, so two changes cannot reach the bus in the other order; emitting only
    /// queues the message.
    private func change<Result>(_ body: (inout PhoneDoNotDisturb) -> Result) -> Result {
        state.withLock { state in
            let before = state.current(at: Date()) != nil
            let result = body(&state)
            let after = state.current(at: Date()) != nil
            if before != after { changed.withLock { $0 }?(after) }
            return result
        }
    }

    /// Changes the shared wishes here (`relayctl dnd`, `mutes`, `quiet-hours`); returns the
    /// change (empty when nothing changed), for the coordinator to store and send.
    func changePreferences(_ what: String, _ body: (inout SharedPreferences) -> SharedPreferences) -> SharedPreferences {
        let change = change { state in
            let change = state.changePreferences(body)
            state.prunePreferences(at: Date())
            return change
        }
        if !change.isEmpty { log("relay-phone: " + what) }
        return change
    }

    /// The monitored desktop's own do not disturb (`DesktopDoNotDisturbWatch`), logged when it changes.
    func setDesktop(_ desktop: String, on: Bool) {
        guard change({ $0.setDesktop(desktop, on: on) }) else { return }
        log("relay-phone: do not disturb \(on ? "on" : "off") on the desktop (\(desktop))")
    }

    /// Takes the newer items of the wearable's change; whether any was taken.
    func merge(_ incoming: SharedPreferences) -> Bool {
        change { state in
            let taken = !state.merge(incoming).isEmpty
            state.prunePreferences(at: Date())
            return taken
        }
    }

    /// For `relayctl status --phone` and `relayctl dnd`.
    var values: [String: ControlValue] {
        let (current, inhibitions) = state.withLock { ($0.current(at: Date()), $0.inhibitions) }
        let on = current.map { "on (\($0.source))" + ($0.until.map { " until \($0.formatted(.iso8601))" } ?? "") }
        var values: [String: ControlValue] = ["doNotDisturb": .string(on ?? "off")]
        // The wearable keeps them: set from here, or its own configuration's.
        values["quietHours"] = .string(
            preferences.quietHours.map { $0.value.map { "\($0)" } ?? "off" } ?? "as the wearable's configuration says")
        if !inhibitions.isEmpty {
            values["inhibitors"] = .list(inhibitions.map { .string("\($0.application) (\($0.owner)): \($0.reason)") })
        }
        return values
    }

    // MARK: The bus

    /// `Inhibit` and `UnInhibit`, added to `org.freedesktop.Notifications`.
    var methods: [DBusMethod] {
        [
            DBusMethod(
                "Inhibit", inputs: [.init("desktop_entry", "s"), .init("reason", "s"), .init("hints", "a{sv}")],
                outputs: [.init("cookie", "u")]
            ) { [self] call, reply in
                // On the bus's loop thread, in the order calls arrive: an inhibitor that leaves
                // right after is seen leaving after its inhibition is held.
                let entry = try call.arguments.decode(0, as: String.self)
                let reason = try call.arguments.decode(1, as: String.self)
                let owner = call.sender ?? ""
                let application = entry.isEmpty ? owner : entry
                let cookie = change { $0.inhibit(application: application, reason: reason, owner: owner) }
                log("relay-phone: do not disturb: inhibited by \(application) (\(owner)): \(reason)")
                reply.succeed([.uint32(cookie)])
            },
            DBusMethod("UnInhibit", inputs: [.init("cookie", "u")]) { [self] call, reply in
                let cookie = try call.arguments.decode(0, as: UInt32.self)
                let owner = call.sender ?? ""
                if change({ $0.uninhibit(cookie: cookie, owner: owner) }) {
                    log("relay-phone: do not disturb: inhibition \(cookie) released by \(owner)")
                }
                reply.succeed([])
            },
        ]
    }

    /// The `Inhibited` property.
    var property: DBusProperty {
        DBusProperty("Inhibited", signature: "b", get: { [self] in .boolean(isInhibited) })
    }

    /// Emits `PropertiesChanged` for `Inhibited` on `connection` from now on, and releases the
    /// inhibitions of whoever leaves the bus; runs until cancelled.
    func serve(on connection: DBusConnection) async throws -> Task<Void, Never> {
        changed.withLock {
            $0 = { inhibited in
                try? connection.emitPropertiesChanged(
                    path: NotificationServer.path, interface: NotificationServer.busName, changed: ["Inhibited": .boolean(inhibited)])
            }
        }
        let departures = try await connection.signals(matching: .nameOwnerChanged())
        return Task { [self] in
            for await message in departures {
                guard message.arguments.count == 3, case .string(let name) = message.arguments[0],
                    case .string(let newOwner) = message.arguments[2], newOwner.isEmpty, name.hasPrefix(":")
                else { continue }
                let left = change { $0.ownerLeft(name) }
                guard !left.isEmpty else { continue }
                log("relay-phone: do not disturb: \(left.map(\.application).joined(separator: ", ")) left the bus; its inhibition ends")
            }
        }
    }
}
