import RelayDBus

/// Follows the active session on one seat: its `LockedHint`, or that no screen that locks is
/// in use (no active session, a display manager's login screen, or a text console;
/// ``SeatSession``).
///
/// The session is found through logind itself (`GetSeat`, then the seat's `ActiveSession`), never
/// by building object paths, because session ids and their path escaping are logind's business.
/// The seat's `PropertiesChanged` follows session switches; the session's follows `LockedHint`
/// and `Type` (which a session started on a console changes with `SetType` when it starts a
/// graphical desktop).
struct LogindWatch: Sendable {
    static let busName = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let seatInterface = "org.freedesktop.login1.Seat"
    static let sessionInterface = "org.freedesktop.login1.Session"

    let connection: DBusConnection
    let seat: String
    let log: @Sendable (String) -> Void

    /// The session type of a text console, which has no lock screen.
    static let textConsole = "tty"
    /// The session class of a display manager's login screen: no one is logged in.
    static let greeter = "greeter"
    /// The session class of a display manager's lock screen.
    static let lockScreen = "lock-screen"

    /// What is known about logind; ``reading`` is what to report.
    private struct Tracker {
        var owner: String?
        var seatPath: String?
        /// The active session's path; `nil` with ``noActiveSession`` when the seat has none.
        var sessionPath: String?
        var noActiveSession = false
        var sessionType: String?
        var sessionClass: String?
        var lockedHint: Bool?
        /// The last problem logged, so a flapping service does not repeat the same line.
        var lastNote: String?

        /// The seat's session as far as locking goes; `nil` while logind cannot say.
        var reading: SeatSession? {
            if noActiveSession || sessionClass == LogindWatch.greeter { return .noScreen }
            // A display manager that locks by switching to its own session (LightDM's
            // light-locker): the user's screen is locked while it is the active one.
            if sessionClass == LogindWatch.lockScreen { return .lockable(locked: true) }
            guard sessionPath != nil, let lockedHint else { return nil }
            return sessionType == LogindWatch.textConsole && !lockedHint ? .noScreen : .lockable(locked: lockedHint)
        }

        /// Forgets the session (and whether there is one).
        mutating func forgetSession() {
            sessionPath = nil
            noActiveSession = false
            sessionType = nil
            sessionClass = nil
            lockedHint = nil
        }
    }

    /// Reports readings until the task is cancelled or the connection ends.
    func run(report: @Sendable (SeatSession?) -> Void) async {
        let rules: [DBusMatchRule] = [
            .nameOwnerChanged(name: Self.busName),
            .propertiesChanged(sender: Self.busName),
            // A seat that did not exist yet (GetSeat failed) is announced by SeatNew.
            .signal(sender: Self.busName, interface: Self.managerInterface, member: "SeatNew", path: Self.managerPath),
        ]
        let feed: SignalFeed
        do {
            feed = try await SignalFeed.open(on: connection, rules: rules)
        } catch {
            log("lock: cannot watch logind: \(error)")
            report(nil)
            return
        }
        defer { feed.close() }
        var tracker = Tracker()
        tracker.owner = (try? await connection.nameOwner(of: Self.busName)) ?? nil
        await resync(&tracker)
        report(tracker.reading)
        for await message in feed.messages {
            if let owner = SignalFeed.ownerChange(message, of: Self.busName) {
                tracker.owner = owner
                await resync(&tracker)
            } else if message.sender != tracker.owner {
                continue
            } else if message.member == "SeatNew", message.interface == Self.managerInterface {
                if tracker.seatPath == nil { await resync(&tracker) }
            } else if let change = SignalFeed.propertiesChanged(message), let path = message.path?.rawValue {
                await follow(change, at: path, &tracker)
            } else {
                continue
            }
            report(tracker.reading)
        }
        // The stream ends without cancellation only when the connection does.
        if !Task.isCancelled {
            log("lock: lost the system bus; logind's last reading stands until relay-phone restarts")
            report(nil)
        }
    }

    /// Reads everything again: at start and whenever logind's owner changes.
    private func resync(_ tracker: inout Tracker) async {
        tracker.seatPath = nil
        tracker.forgetSession()
        guard tracker.owner != nil else {
            note("lock: logind (\(Self.busName)) is not on the system bus; its last reading, if any, stands until it is back", &tracker)
            return
        }
        do {
            let reply = try await connection.call(
                destination: Self.busName, path: Self.managerPath, interface: Self.managerInterface, method: "GetSeat",
                arguments: [.string(seat)], timeout: .seconds(5))
            guard case .objectPath(let path)? = reply.first else {
                throw DBusError(.invalidArgs, "GetSeat returned \(reply)")
            }
            tracker.seatPath = path.rawValue
        } catch {
            note("lock: logind has no seat \(seat) (\(error)); waiting for it", &tracker)
            return
        }
        await readActiveSession(&tracker)
    }

    private func readActiveSession(_ tracker: inout Tracker) async {
        guard let seatPath = tracker.seatPath else { return }
        do {
            let value = try await connection.property("ActiveSession", of: Self.seatInterface, at: seatPath, on: Self.busName)
            await switchSession(to: value, &tracker)
        } catch {
            tracker.forgetSession()
            note("lock: cannot read the active session of \(seat): \(error)", &tracker)
        }
    }

    /// `ActiveSession` is `(so)`; the path `/` means no session is active on the seat.
    private func switchSession(to value: DBusValue, _ tracker: inout Tracker) async {
        guard case .structure(let fields) = value, fields.count == 2, case .objectPath(let path) = fields[1],
            path.rawValue != "/"
        else {
            tracker.forgetSession()
            tracker.noActiveSession = true
            note("lock: no active session on \(seat): no screen that locks", &tracker)
            return
        }
        tracker.forgetSession()
        tracker.sessionPath = path.rawValue
        await readSessionType(&tracker)
        await readLockedHint(&tracker)
    }

    /// The session's `Type` and `Class`; ones that cannot be read count as a user's session
    /// with a screen that locks.
    private func readSessionType(_ tracker: inout Tracker) async {
        guard let sessionPath = tracker.sessionPath else { return }
        let type = try? await connection.property("Type", of: Self.sessionInterface, at: sessionPath, on: Self.busName)
        if case .string(let type)? = type { tracker.sessionType = type } else { tracker.sessionType = nil }
        let kind = try? await connection.property("Class", of: Self.sessionInterface, at: sessionPath, on: Self.busName)
        if case .string(let kind)? = kind { tracker.sessionClass = kind } else { tracker.sessionClass = nil }
    }

    private func readLockedHint(_ tracker: inout Tracker) async {
        guard let sessionPath = tracker.sessionPath else { return }
        do {
            let value = try await connection.property("LockedHint", of: Self.sessionInterface, at: sessionPath, on: Self.busName)
            guard case .boolean(let locked) = value else { throw DBusError(.invalidArgs, "LockedHint is \(value)") }
            tracker.lockedHint = locked
            tracker.lastNote = nil
        } catch {
            tracker.lockedHint = nil
            note("lock: cannot read LockedHint of \(sessionPath): \(error)", &tracker)
        }
    }

    /// Applies a `PropertiesChanged` of the watched seat or session; others are not ours.
    private func follow(
        _ change: (interface: String, changed: [String: DBusValue], invalidated: [String]), at path: String,
        _ tracker: inout Tracker
    ) async {
        if path == tracker.seatPath, change.interface == Self.seatInterface {
            if let session = change.changed["ActiveSession"] {
                await switchSession(to: session, &tracker)
            } else if change.invalidated.contains("ActiveSession") {
                await readActiveSession(&tracker)
            }
        } else if path == tracker.sessionPath, change.interface == Self.sessionInterface {
            if case .boolean(let locked)? = change.changed["LockedHint"] {
                tracker.lockedHint = locked
            } else if change.invalidated.contains("LockedHint") || change.changed["LockedHint"] != nil {
                await readLockedHint(&tracker)
            }
            if case .string(let type)? = change.changed["Type"] { tracker.sessionType = type }
            if case .string(let kind)? = change.changed["Class"] { tracker.sessionClass = kind }
            if change.invalidated.contains("Type") || change.invalidated.contains("Class") { await readSessionType(&tracker) }
        }
    }

    private func note(_ line: String, _ tracker: inout Tracker) {
        guard tracker.lastNote != line else { return }
        tracker.lastNote = line
        log(line)
    }
}
