/// Where a lock reading comes from.
public enum LockSource: Sendable, Hashable, CustomStringConvertible {
    /// logind's `LockedHint` of the seat's active session (system bus).
    case logind
    /// A screensaver service on the session bus, by its bus name (`org.freedesktop.ScreenSaver`, …).
    case screenSaver(String)
    /// The user's override from the control socket (`relayctl lock` / `unlock`).
    case manual
    /// No source knows anything: a phone board with no screen and no session, which counts as
    /// locked (``LockState/WithoutSource/headless``).
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

/// One source's new reading; `nil` means the source is absent or does not know (and is then ignored).
public enum LockSourceUpdate: Sendable, Hashable {
    /// logind's `LockedHint` of the active session.
    case logind(locked: Bool?)
    /// A screensaver's `GetActive` / `ActiveChanged`.
    case screenSaver(String, active: Bool?)
    /// The manual override; `nil` clears it (`relayctl lock --auto`).
    case manual(override: Bool?)
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
/// screensaver says so, and unlocked if one of them knows it is not. Sources that are absent or
/// unknown are ignored. With nothing known — no logind session on the seat, no screensaver —
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

    /// logind's reading, `nil` when unknown.
    public private(set) var logind: Bool?
    /// Each known screensaver's reading; unknown ones are not kept.
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
        case .logind(let locked): logind = locked
        case .screenSaver(let name, let active): screenSavers[name] = active
        case .manual(let override): manual = override
        }
        let after = decision
        return after.locked == before ? nil : after
    }

    /// The effective state and who decided it. Screensavers are checked in name order, so the
    /// reported source does not depend on which reading arrived first.
    private var decision: LockChange {
        if let manual { return LockChange(locked: manual, source: .manual) }
        if logind == true { return LockChange(locked: true, source: .logind) }
        let savers = screenSavers.sorted { $0.key < $1.key }
        if let active = savers.first(where: { $0.value }) {
            return LockChange(locked: true, source: .screenSaver(active.key))
        }
        if logind != nil { return LockChange(locked: false, source: .logind) }
        if let saver = savers.first { return LockChange(locked: false, source: .screenSaver(saver.key)) }
        return withoutSource == .headless ? LockChange(locked: true, source: .headless) : LockChange(locked: false, source: nil)
    }
}
