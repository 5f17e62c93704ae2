import Foundation
public import RelayDBus
import Synchronization

/// Keeps the desktop's own notification server quiet while the wearable is connected, so that
/// only the wearable alerts (`mirror.only_wearable_alerts`, Docs/POLICY.md): KDE Plasma through
/// `Inhibit` (which Plasma ends by itself should relay-phone leave the bus), dunst by setting its
/// `paused`, and otherwise GNOME (and Phosh) by turning its banners off (`show-banners` in
/// `org.gnome.desktop.notifications`, written with `gsettings`: GSettings has no bus interface
/// to write through). Only what was not quiet already is quietened, and only that is given
/// back. Wishes are carried out in order on one task; the newest wins when they come faster.
///
/// `DesktopDoNotDisturbWatch` sees these changes as any other; ``userState(of:reported:)``
/// tells which are this one's doing, so that they do not count as the user's do not disturb.
public final class DesktopQuieting: Sendable {
    enum Hold: Sendable, Equatable {
        /// Being taken: the server's change may be heard before its reply.
        case taking
        case plasma(cookie: UInt32)
        case dunst
        case gnome
    }

    static let plasma = "KDE Plasma"
    static let dunst = "dunst"
    static let gnome = "GNOME"
    static let server = (name: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications")
    static let dunstInterface = "org.dunstproject.cmd0"
    static let banners = (schema: "org.gnome.desktop.notifications", key: "show-banners")

    /// What is held, by desktop; shared with the task that takes and gives back.
    final class Holdings: Sendable {
        private let held = Mutex<[String: Hold]>([:])
        func withLock<T>(_ body: (inout [String: Hold]) -> T) -> T { held.withLock { body(&$0) } }
    }

    private let held = Holdings()
    /// Whether the wearable is connected and the phone locked: quiet only while both hold.
    private let inputs = Mutex((connected: false, locked: false))
    private let wishes: AsyncStream<Bool>.Continuation
    private let task: Task<Void, Never>
    private let marker: String
    private let log: @Sendable (String) -> Void

    /// Ready to quieten the server on `connection`. `marker` is a file that names, while they
    /// last, the pauses relay-phone made that nothing else would undo (dunst's, GNOME's banners),
    /// so that the next start undoes them after a crash (``undoAfterCrash(_:marker:log:)``). `reread` hears each desktop's do not
    /// disturb as it stands once it was given back (the user may have turned it on meanwhile,
    /// which the watch could not tell apart).
    public init(
        connection: DBusConnection, marker: String, log: @escaping @Sendable (String) -> Void,
        reread: @escaping @Sendable (_ desktop: String, _ on: Bool) -> Void
    ) {
        self.marker = marker
        self.log = log
        let (stream, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wishes = continuation
        let held = held
        task = Task {
            for await quiet in stream {
                if quiet {
                    await Self.take(connection, held: held, marker: marker, log: log)
                } else {
                    await Self.giveBack(connection, held: held, marker: marker, log: log, reread: reread)
                }
            }
        }
    }

    /// The wearable connected or went. The desktop is kept quiet while it is connected and the
    /// phone is locked: at an unlocked phone the user is looking at its screen, and the wearable
    /// does not alert then.
    public func linkChanged(connected: Bool) {
        inputs.withLock { inputs in
            inputs.connected = connected
            wishes.yield(inputs.connected && inputs.locked)
        }
    }

    /// The phone locked or unlocked (see ``linkChanged(connected:)``).
    public func lockChanged(locked: Bool) {
        inputs.withLock { inputs in
            inputs.locked = locked
            wishes.yield(inputs.connected && inputs.locked)
        }
    }

    /// The notification server left or another took its name: what was held there went with
    /// it (Plasma ends an inhibition with its owner; a new dunst starts unpaused). Taken again
    /// from the new owner, if still wanted.
    public func serverReplaced() {
        let (released, quiet) = held.withLock { held in
            held[Self.plasma] = nil
            held[Self.dunst] = nil
            return (held, inputs.withLock { $0.connected && $0.locked })
        }
        Self.mark(released, marker: marker)
        if quiet { wishes.yield(true) }
    }

    /// The user's do not disturb on `desktop`, given that it is reported `on`: while this one
    /// holds the desktop quiet, that is its own doing and counts as off. Someone resuming dunst
    /// or turning GNOME's banners back on meanwhile takes it over: it is not quietened again,
    /// nor given back, until the wearable next connects, and quiet after that is the user's.
    public func userState(of desktop: String, reported on: Bool) -> Bool {
        let (counts, released) = held.withLock { held -> (Bool, [String: Hold]?) in
            switch held[desktop] {
            case nil: return (on, nil)
            case .dunst? where !on, .gnome? where !on:
                held[desktop] = nil
                return (false, held)
            default: return (false, nil)
            }
        }
        if let released {
            Self.mark(released, marker: marker)
            log("relay-phone: \(desktop)'s notifications were turned back on while the wearable is connected; they are left as they are")
        }
        return counts
    }

    /// Gives back what it holds and stops.
    public func stop() async {
        wishes.yield(false)
        wishes.finish()
        await task.value
    }

    private static func take(_ connection: DBusConnection, held: Holdings, marker: String, log: (String) -> Void) async {
        guard held.withLock({ $0.isEmpty }) else { return }
        let inhibited = try? await connection.property("Inhibited", of: server.name, at: server.path, on: server.name)
        let paused = try? await connection.property("paused", of: dunstInterface, at: server.path, on: server.name)
        if case .boolean(false)? = inhibited {
            held.withLock { $0[plasma] = .taking }
            do {
                let reply = try await connection.call(
                    destination: server.name, path: server.path, interface: server.name, method: "Inhibit",
                    arguments: [
                        .string("relay-phone"), .string("the wearable alerts instead"),
                        .dictionary(keySignature: .string, valueSignature: .variant, entries: []),
                    ],
                    timeout: .seconds(5))
                guard case .uint32(let cookie)? = reply.first else { throw DBusError(.invalidArgs, "Inhibit returned no cookie") }
                held.withLock { $0[plasma] = .plasma(cookie: cookie) }
                log("relay-phone: the wearable is connected; KDE Plasma's notifications are inhibited while it is (mirror.only_wearable_alerts)")
            } catch {
                held.withLock { $0[plasma] = nil }
                log("relay-phone: could not inhibit KDE Plasma's notifications while the wearable is connected: \(error)")
            }
        }
        if case .boolean(false)? = paused {
            await quieten(dunst, held: held, marker: marker, log: log) { try await setDunstPaused(true, on: connection) }
        }
        // GNOME Shell or Phosh, whose banners are a GSettings key: not written for any other
        // server, nor where they are off already.
        if inhibited == nil, paused == nil, await DesktopDoNotDisturbWatch.isGNOMEServer(on: connection), await GSettingsTool.boolean(banners.schema, banners.key) == true {
            await quieten(gnome, held: held, marker: marker, log: log) { try await GSettingsTool.set(banners.schema, banners.key, to: false) }
        }
    }

    /// Quietens `desktop` with `change`, marked in `marker` before it happens.
    private static func quieten(
        _ desktop: String, held: Holdings, marker: String, log: (String) -> Void, _ change: () async throws -> Void
    ) async {
        mark(held.withLock { held in
            held[desktop] = .taking
            return held
        }, marker: marker)
        do {
            try await change()
            held.withLock { $0[desktop] = desktop == dunst ? .dunst : .gnome }
            log("relay-phone: the wearable is connected; \(desktop)'s notifications are paused while it is (mirror.only_wearable_alerts)")
        } catch {
            mark(held.withLock { held in
                held[desktop] = nil
                return held
            }, marker: marker)
            log("relay-phone: could not pause \(desktop)'s notifications while the wearable is connected: \(error)")
        }
    }

    private static func giveBack(
        _ connection: DBusConnection, held: Holdings, marker: String, log: (String) -> Void,
        reread: (String, Bool) -> Void
    ) async {
        let holds = held.withLock { $0 }
        for (desktop, hold) in holds.sorted(by: { $0.key < $1.key }) {
            // Let go before undoing it, so that the server's report of the undoing is not taken
            // for someone else's; the marker stays until it is undone.
            let remaining = held.withLock { held in
                held[desktop] = nil
                return held
            }
            do {
                switch hold {
                case .taking:
                    break
                case .plasma(let cookie):
                    _ = try await connection.call(
                        destination: server.name, path: server.path, interface: server.name, method: "UnInhibit",
                        arguments: [.uint32(cookie)], timeout: .seconds(5))
                case .dunst:
                    // Unless someone resumed it meanwhile (the hold would be gone if the watch saw it).
                    if await state(of: desktop, on: connection) == true { try await setDunstPaused(false, on: connection) }
                case .gnome:
                    if await state(of: desktop, on: connection) == true {
                        try await GSettingsTool.set(banners.schema, banners.key, to: true)
                    }
                }
                if hold != .taking { log("relay-phone: the wearable is gone; \(desktop)'s notifications are no longer held back") }
            } catch {
                log("relay-phone: could not give \(desktop) its notifications back (\(undo(desktop))): \(error)")
            }
            mark(remaining, marker: marker)
            if let on = await state(of: desktop, on: connection) { reread(desktop, on) }
        }
    }

    /// How a person undoes what could not be given back.
    private static func undo(_ desktop: String) -> String {
        switch desktop {
        case dunst: "dunstctl set-paused false resumes it"
        case gnome: "gsettings set \(banners.schema) \(banners.key) true turns the banners back on"
        default: "it ends when relay-phone stops"
        }
    }

    /// A desktop's do not disturb as it stands.
    private static func state(of desktop: String, on connection: DBusConnection) async -> Bool? {
        switch desktop {
        case gnome:
            return await GSettingsTool.boolean(banners.schema, banners.key).map { !$0 }
        default:
            let (property, interface) = desktop == plasma ? ("Inhibited", server.name) : ("paused", dunstInterface)
            guard case .boolean(let on)? = try? await connection.property(property, of: interface, at: server.path, on: server.name) else { return nil }
            return on
        }
    }

    /// Writes which pauses would need undoing after a crash (dunst's, GNOME's), or removes the
    /// file when none would.
    private static func mark(_ held: [String: Hold], marker: String) {
        let undone = [dunst, gnome].filter { held[$0] != nil }
        if undone.isEmpty {
            try? FileManager.default.removeItem(atPath: marker)
        } else {
            _ = FileManager.default.createFile(
                atPath: marker, contents: Data(undone.map { $0 + "\n" }.joined().utf8), attributes: [.posixPermissions: 0o600])
        }
    }

    /// After a run that ended with dunst paused or GNOME's banners off by it (`marker` names
    /// them): undone, if they still are. Called at every start, whatever the configuration says
    /// now, before anything is quietened again.
    public static func undoAfterCrash(_ connection: DBusConnection, marker: String, log: (String) -> Void) async {
        guard let text = try? String(contentsOfFile: marker, encoding: .utf8) else { return }
        for desktop in text.split(separator: "\n").map(String.init) where await state(of: desktop, on: connection) == true {
            if desktop == dunst {
                try? await setDunstPaused(false, on: connection)
            } else if desktop == gnome {
                try? await GSettingsTool.set(banners.schema, banners.key, to: true)
            }
            log("relay-phone: the last run ended with \(desktop)'s notifications held back for the wearable; they are given back")
        }
        try? FileManager.default.removeItem(atPath: marker)
    }

    private static func setDunstPaused(_ paused: Bool, on connection: DBusConnection) async throws {
        _ = try await connection.call(
            destination: server.name, path: server.path, interface: "org.freedesktop.DBus.Properties", method: "Set",
            arguments: [.string(dunstInterface), .string("paused"), .variant(.boolean(paused))], timeout: .seconds(5))
    }
}
