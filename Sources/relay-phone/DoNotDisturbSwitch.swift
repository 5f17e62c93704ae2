import Foundation
import PhoneAgent
import RelayCLI
import RelayControl
import RelayCore
import RelayDBus
import Synchronization

/// The phone's do not disturb in the agent (`PhoneDoNotDisturb` behind a lock) with its bus
/// side, as KDE Plasma's notification server has it: `Inhibit(desktop_entry, reason, hints)`
/// returns a cookie, `UnInhibit(cookie)` releases it, an inhibitor that leaves the bus releases
/// all of its own, and the `Inhibited` property says whether any is held. `relayctl dnd` is the
/// manual source. Read by the mirror at each change; called from bus tasks and the control thread.
final class DoNotDisturbSwitch: Sendable {
    private let state: Mutex<PhoneDoNotDisturb>
    private let log: AgentLogSink
    /// Tells the bus that `Inhibited` changed; set once the interface is exported.
    private let changed = Mutex<(@Sendable (Bool) -> Void)?>(nil)

    /// Off but for `manual`, as stored.
    init(manual: DoNotDisturb?, log: AgentLogSink) {
        state = Mutex(PhoneDoNotDisturb(manual: manual))
        self.log = log
    }

    /// Do not disturb as it stands now, for the mirror.
    func current() -> DoNotDisturb? { state.withLock { $0.current(at: Date()) } }

    /// Whether an application holds an inhibition (the `Inhibited` property).
    var isInhibited: Bool { state.withLock { !$0.inhibitions.isEmpty } }

    /// The manual setting, after it is stored.
    func setManual(on: Bool, until: Date?) {
        state.withLock { $0.setManual(on: on, until: until) }
        log("relay-phone: " + (current().map { "\($0)" } ?? "do not disturb is off"))
    }

    /// For `relayctl status --phone` and `relayctl dnd`.
    var values: [String: ControlValue] {
        let (current, inhibitions) = state.withLock { ($0.current(at: Date()), $0.inhibitions) }
        var values: [String: ControlValue] = ["doNotDisturb": .string(current.map { "on, \($0)" } ?? "off")]
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
                let (cookie, first) = state.withLock { state in
                    (state.inhibit(application: application, reason: reason, owner: owner), state.inhibitions.count == 1)
                }
                log("relay-phone: do not disturb: inhibited by \(application) (\(owner)): \(reason)")
                if first { changed.withLock { $0 }?(true) }
                reply.succeed([.uint32(cookie)])
            },
            DBusMethod("UnInhibit", inputs: [.init("cookie", "u")]) { [self] call, reply in
                let cookie = try call.arguments.decode(0, as: UInt32.self)
                let owner = call.sender ?? ""
                let (released, last) = state.withLock { state in (state.uninhibit(cookie: cookie, owner: owner), state.inhibitions.isEmpty) }
                guard released else {
                    throw DBusError(.invalidArgs, "no inhibition \(cookie) of \(owner) is held")
                }
                log("relay-phone: do not disturb: inhibition \(cookie) released by \(owner)")
                if last { changed.withLock { $0 }?(false) }
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
                let (left, none) = state.withLock { state in (state.ownerLeft(name), state.inhibitions.isEmpty) }
                guard !left.isEmpty else { continue }
                log("relay-phone: do not disturb: \(left.map(\.application).joined(separator: ", ")) left the bus; its inhibition ends")
                if none { changed.withLock { $0 }?(false) }
            }
        }
    }
}
