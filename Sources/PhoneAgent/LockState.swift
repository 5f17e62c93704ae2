/// Where a lock reading comes from.
public enum LockSource: Sendable, Hashable, CustomStringConvertible {
    /// logind's `LockedHint` of the seat's active session (system bus).
    case logind
    /// A screensaver service on the session bus, by its bus name (`org.freedesktop.ScreenSaver`, …).
    case screenSaver(String)
    /// The user's override from the control socket (`relayctl lock` / `unlock`).
    case manual
    /// No screen that locks: logind's seat has no active session or a text console, and no
    /// screensaver is known (or nothing was ever heard); a phone board that counts as locked
    /// (``LockState/WithoutSource/headless``).
    case headless

    /// `logind`, `manual`, or the screensaver's bus name: the form `status` and the log use.
    public var description: String {
        switch self {
        case .logind: "logind"
        case .screenSaver(let name): name
        case .manual: "manual"
        case .headless: "headless"
        }
    }
}

/// One source's new reading; `nil` means the source cannot say now (it went away, or it does
/// not answer), and then what it said last stands.
public enum LockSourceUpdate: Sendable, Hashable {
    /// What logind says of the seat's active session.
    case logind(LogindSeat?)
    /// A screensaver's `GetActive` / `ActiveChanged`.
    case screenSaver(String, active: Bool?)
    /// The manual override; `nil` clears it (`relayctl lock --auto`).
    case manual(override: Bool?)
}

/// What logind says of the seat's active session, as far as locking goes.
public enum LogindSeat: Sendable, Hashable {
    /// A session whose screen can lock is active; its `LockedHint`.
    case session(locked: Bool)
    /// No screen that locks is in use: no session is active, or a text console is.
    case noScreen
}

/// A change of the effective lock state: an event for the mirror policy.
public struct LockChange: Sendable, Hashable, CustomStringConvertible {
    /// Whether the phone now counts as locked.
    public let locked: Bool
    /// The source that decided it; `nil` when no source knows anything and that counts as unlocked.
    public let source: LockSource?

    /// Creates a change; ``LockState/apply(_:)`` makes them, tests compare against them.
    public init(locked: Bool, source: LockSource?) {
        self.locked = locked
        self.source = source
    }

    /// `locked (logind)`, `unlocked (no source)`: the log line's form.
    public var description: String {
        "\(locked ? "locked" : "unlocked") (\(source?.description ?? "no source"))"
    }
}

/// Whether the phone counts as locked, combined from its sources, as a value.
///
/// The manual override wins; otherwise the phone is locked if logind's `LockedHint` or any
/// screensaver says so, and unlocked if one of them knows it is not. A source that goes away
/// or stops answering keeps its last reading: logind restarting, or the system bus lost, must
/// not turn a desktop into a board. With no screen that locks — logind's seat has no active
/// session or only a text console, and no screensaver is known, or nothing was ever heard —
/// there is no screen to look at: the phone counts as locked (``WithoutSource/headless``, the
/// default), as a phone board that only relays is meant to; ``WithoutSource/unlocked`` keeps the
/// rule of a desktop, where a wrong "locked" would duplicate every notification onto the wrist
/// while the user looks at the screen.
public struct LockState: Sendable, Hashable {
    /// What the phone counts as while no source knows anything.
    public enum WithoutSource: Sendable, Hashable {
        /// Locked: a phone with no screen mirrors everything (source ``LockSource/headless``).
        case headless
        /// Unlocked (no source): `when_unlocked` decides what reaches the wearable.
        case unlocked
    }

    /// logind's last reading, `nil` when it never gave one.
    public private(set) var logind: LogindSeat?
    /// Each screensaver's last reading; ones never heard are not kept.
    public private(set) var screenSavers: [String: Bool] = [:]
    /// The manual override, `nil` when automatic.
    public private(set) var manual: Bool?
    /// What the phone counts as while no source knows anything.
    public let withoutSource: WithoutSource

    /// An automatic state with no source known yet.
    public init(withoutSource: WithoutSource = .headless) {
        self.withoutSource = withoutSource
    }

    /// Whether the phone counts as locked.
    public var locked: Bool { decision.locked }

    /// The source that decides ``locked`` now; `nil` when none knows anything and that counts as unlocked.
    public var source: LockSource? { decision.source }

    /// Applies a reading; returns a change only when ``locked`` changes.
    public mutating func apply(_ update: LockSourceUpdate) -> LockChange? {
        let before = locked
        switch update {
        case .logind(let seat?): logind = seat
        case .screenSaver(let name, let active?): screenSavers[name] = active
        case .logind(nil), .screenSaver(_, nil): break
        case .manual(let override): manual = override
        }
        let after = decision
        return after.locked == before ? nil : after
    }

    /// The effective state and who decided it. Screensavers are checked in name order, so the
    /// reported source does not depend on which reading arrived first.
    private var decision: LockChange {
        if let manual { return LockChange(locked: manual, source: .manual) }
        if logind == .session(locked: true) { return LockChange(locked: true, source: .logind) }
        let savers = screenSavers.sorted { $0.key < $1.key }
        if let active = savers.first(where: { $0.value }) {
            return LockChange(locked: true, source: .screenSaver(active.key))
        }
        if logind == .session(locked: false) { return LockChange(locked: false, source: .logind) }
        if let saver = savers.first { return LockChange(locked: false, source: .screenSaver(saver.key)) }
        return withoutSource == .headless ? LockChange(locked: true, source: .headless) : LockChange(locked: false, source: nil)
    }
}
