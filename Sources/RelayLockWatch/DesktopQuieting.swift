import Foundation
public import RelayDBus
import Synchronization

/// Keeps the desktop's own notification server quiet while the wearable is connected, so that
/// only the wearable alerts (`mirror.only_wearable_alerts`, Docs/POLICY.md): KDE Plasma through
/// `Inhibit` (which Plasma ends by itself should relay-phone leave the bus), dunst by setting its
/// `paused`. Only a server that was not quiet already is quietened, and only that one is given
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
    }

    static let plasma = "KDE Plasma"
    static let dunst = "dunst"
    static let server = (name: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications")
    static let dunstInterface = "org.dunstproject.cmd0"

    private let connection: DBusConnection
    /// What is held, by desktop; shared with the task that takes and gives back.
    final class Holdings: Sendable {
        private let held = Mutex<[String: Hold]>([:])
        func withLock<T>(_ body: (inout [String: Hold]) -> T) -> T { held.withLock { body(&$0) } }
    }

    private let held = Holdings()
    private let wishes: AsyncStream<Bool>.Continuation
    private let task: Task<Void, Never>
    private let marker: String
    private let log: @Sendable (String) -> Void

    /// Ready to quieten the server on `connection`. `marker` is a file that exists while dunst is
    /// paused by relay-phone, so that the next start can resume it after a crash. `reread` hears
    /// each server's do not disturb as it stands once it was given back (the user may have
    /// turned it on meanwhile, which the watch could not tell apart).
    public init(
        connection: DBusConnection, marker: String, log: @escaping @Sendable (String) -> Void,
        reread: @escaping @Sendable (_ desktop: String, _ on: Bool) -> Void
    ) {
        self.connection = connection
        self.marker = marker
        self.log = log
        let (stream, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wishes = continuation
        let held = held
        task = Task {
            await Self.resumeAfterCrash(connection, marker: marker, log: log)
            for await quiet in stream {
                if quiet {
                    await Self.take(connection, held: held, marker: marker, log: log)
                } else {
                    await Self.giveBack(connection, held: held, marker: marker, log: log, reread: reread)
                }
            }
        }
    }

    /// Asks for the server to be quiet (the wearable connected) or not.
    public func want(quiet: Bool) {
        wishes.yield(quiet)
    }

    /// The user's do not disturb on `desktop`, given that the server reports it `on`: while this
    /// one holds the server quiet, that is its own doing and counts as off. Someone resuming
    /// dunst meanwhile takes it over: it is not paused again, nor resumed, until the wearable
    /// next connects, and a pause after that is the user's.
    public func userState(of desktop: String, reported on: Bool) -> Bool {
        let (counts, released) = held.withLock { held -> (Bool, Bool) in
            switch held[desktop] {
            case nil: return (on, false)
            case .dunst? where !on:
                held[desktop] = nil
                return (false, true)
            default: return (false, false)
            }
        }
        if released {
            try? FileManager.default.removeItem(atPath: marker)
            log("relay-phone: dunst was resumed while the wearable is connected; it is left as it is")
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
        if case .boolean(false)? = try? await connection.property("Inhibited", of: server.name, at: server.path, on: server.name) {
            held.withLock { $0[plasma] = .taking }
            do {
                let reply = try await connection.call(
                    destination: server.name, path: server.path, interface: server.name, method: "Inhibit",
                    arguments: [.string("relay-phone"), .string("the wearable alerts instead"), .dictionary(keySignature: .string, valueSignature: .variant, entries: [])],
                    timeout: .seconds(5))
                guard case .uint32(let cookie)? = reply.first else { throw DBusError(.invalidArgs, "Inhibit returned no cookie") }
                held.withLock { $0[plasma] = .plasma(cookie: cookie) }
                log("relay-phone: the wearable is connected; KDE Plasma's notifications are inhibited while it is (mirror.only_wearable_alerts)")
            } catch {
                held.withLock { $0[plasma] = nil }
                log("relay-phone: could not inhibit KDE Plasma's notifications while the wearable is connected: \(error)")
            }
        }
        if case .boolean(false)? = try? await connection.property("paused", of: dunstInterface, at: server.path, on: server.name) {
            held.withLock { $0[dunst] = .taking }
            do {
                _ = FileManager.default.createFile(atPath: marker, contents: Data("dunst\n".utf8), attributes: [.posixPermissions: 0o600])
                try await setDunstPaused(true, on: connection)
                held.withLock { $0[dunst] = .dunst }
                log("relay-phone: the wearable is connected; dunst is paused while it is (mirror.only_wearable_alerts)")
            } catch {
                held.withLock { $0[dunst] = nil }
                try? FileManager.default.removeItem(atPath: marker)
                log("relay-phone: could not pause dunst while the wearable is connected: \(error)")
            }
        }
    }

    private static func giveBack(
        _ connection: DBusConnection, held: Holdings, marker: String, log: (String) -> Void,
        reread: (String, Bool) -> Void
    ) async {
        let holds = held.withLock { $0 }
        for (desktop, hold) in holds.sorted(by: { $0.key < $1.key }) {
            switch hold {
            case .taking:
                break
            case .plasma(let cookie):
                do {
                    _ = try await connection.call(
                        destination: server.name, path: server.path, interface: server.name, method: "UnInhibit",
                        arguments: [.uint32(cookie)], timeout: .seconds(5))
                    log("relay-phone: the wearable is gone; KDE Plasma's notifications are no longer inhibited")
                } catch {
                    log("relay-phone: could not end the inhibition of KDE Plasma's notifications: \(error)")
                }
            case .dunst:
                do {
                    // Unless someone resumed it meanwhile (the hold would be gone if the watch saw it).
                    if case .boolean(true)? = try? await connection.property("paused", of: dunstInterface, at: server.path, on: server.name) {
                        try await setDunstPaused(false, on: connection)
                    }
                    try? FileManager.default.removeItem(atPath: marker)
                    log("relay-phone: the wearable is gone; dunst is no longer paused")
                } catch {
                    log("relay-phone: could not resume dunst (dunstctl set-paused false resumes it): \(error)")
                }
            }
            held.withLock { $0[desktop] = nil }
            if let on = await state(of: desktop, on: connection) { reread(desktop, on) }
        }
    }

    /// A server's do not disturb as it stands.
    private static func state(of desktop: String, on connection: DBusConnection) async -> Bool? {
        let (property, interface) = desktop == plasma ? ("Inhibited", server.name) : ("paused", dunstInterface)
        guard case .boolean(let on)? = try? await connection.property(property, of: interface, at: server.path, on: server.name) else { return nil }
        return on
    }

    /// After a run that ended with dunst paused by it: resumed, if it still is.
    private static func resumeAfterCrash(_ connection: DBusConnection, marker: String, log: (String) -> Void) async {
        guard FileManager.default.fileExists(atPath: marker) else { return }
        if case .boolean(true)? = try? await connection.property("paused", of: dunstInterface, at: server.path, on: server.name) {
            try? await setDunstPaused(false, on: connection)
            log("relay-phone: the last run ended with dunst paused for the wearable; it is resumed")
        }
        try? FileManager.default.removeItem(atPath: marker)
    }

    private static func setDunstPaused(_ paused: Bool, on connection: DBusConnection) async throws {
        _ = try await connection.call(
            destination: server.name, path: server.path, interface: "org.freedesktop.DBus.Properties", method: "Set",
            arguments: [.string(dunstInterface), .string("paused"), .variant(.boolean(paused))], timeout: .seconds(5))
    }
}
