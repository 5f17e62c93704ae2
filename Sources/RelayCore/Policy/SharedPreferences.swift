public import Foundation

/// The user's wishes that the phone and the wearable both keep — the manual do not disturb,
/// the quiet hours and the mutes — as a set of items each stamped with when it was changed, in
/// the phone's time. Merging keeps, item by item, the newer change (a last-writer-wins map), so
/// changes made on both devices while apart converge to the newest, and a change that comes
/// back (an echo) changes nothing. Removed mutes stay as tombstones for the same reason: an
/// older mute arriving late must not come back (Docs/POLICY.md, "Shared on both devices").
public struct SharedPreferences: Sendable, Hashable {
    /// A value with the time it was set.
    public struct Stamped<Value: Sendable & Hashable>: Sendable, Hashable {
        /// The value.
        public var value: Value
        /// When it was set, in the phone's time, to the millisecond.
        public var changedAt: Date

        /// A stamped value.
        public init(_ value: Value, changedAt: Date) {
            self.value = value
            self.changedAt = changedAt
        }

        /// Whether this change wins over `other`: it is newer, or as new with a later value in a
        /// fixed order (so that both devices pick the same of two changes made in the same
        /// millisecond).
        public func wins(over other: Stamped<Value>?) -> Bool where Value: TieBreaking {
            guard let other else { return true }
            if changedAt != other.changedAt { return changedAt > other.changedAt }
            return value.tieKey > other.value.tieKey
        }
    }

    /// The manual do not disturb.
    public enum ManualDoNotDisturb: Sendable, Hashable {
        /// On, until a time (`nil`: until turned off).
        case on(until: Date?)
        /// Off.
        case off
    }

    /// A mute, or the tombstone of one removed.
    public enum MuteState: Sendable, Hashable {
        /// Muted until a time (`nil`: always).
        case muted(until: Date?)
        /// Unmuted.
        case removed
    }

    /// The manual do not disturb, once set on either device.
    public private(set) var doNotDisturb: Stamped<ManualDoNotDisturb>?
    /// The quiet hours, once set from the phone (`nil` inside: none); until then the wearable's
    /// configuration has them.
    public private(set) var quietHours: Stamped<QuietHours?>?
    /// The mutes and the tombstones of removed ones, by what they mute.
    public private(set) var mutes: [Mute.Scope: Stamped<MuteState>] = [:]

    /// Nothing set.
    public init() {}

    /// Whether nothing is set.
    public var isEmpty: Bool { doNotDisturb == nil && quietHours == nil && mutes.isEmpty }

    // MARK: Changes made here

    /// The stamp for a change made at `now` to an item last changed at `last`: never older than
    /// that, so a change made here wins even when this clock is behind the last change's.
    static func stamp(_ now: Date, after last: Date?) -> Date {
        let rounded = millisecond(now)
        guard let last, rounded <= last else { return rounded }
        return millisecond(last.addingTimeInterval(0.001))
    }

    /// `date` to the millisecond, as the wire carries it.
    public static func millisecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// Sets the manual do not disturb at `now`; returns the change, to send to the other device.
    public mutating func setDoNotDisturb(_ value: ManualDoNotDisturb, at now: Date) -> SharedPreferences {
        var change = SharedPreferences()
        let value: ManualDoNotDisturb = if case .on(let until) = value { .on(until: until.map(Self.millisecond)) } else { .off }
        change.doNotDisturb = Stamped(value, changedAt: Self.stamp(now, after: doNotDisturb?.changedAt))
        doNotDisturb = change.doNotDisturb
        return change
    }

    /// Sets the quiet hours (`nil`: none) at `now`; returns the change.
    public mutating func setQuietHours(_ value: QuietHours?, at now: Date) -> SharedPreferences {
        var change = SharedPreferences()
        change.quietHours = Stamped(value, changedAt: Self.stamp(now, after: quietHours?.changedAt))
        quietHours = change.quietHours
        return change
    }

    /// Mutes `scope` until `until` (`nil`: always) at `now`; returns the change.
    public mutating func mute(_ scope: Mute.Scope, until: Date?, at now: Date) -> SharedPreferences {
        set(scope, .muted(until: until.map(Self.millisecond)), at: now)
    }

    /// Removes the mute of `scope` at `now`; returns the change (empty when it was not muted).
    public mutating func unmute(_ scope: Mute.Scope, at now: Date) -> SharedPreferences {
        guard case .muted = mutes[scope]?.value else { return SharedPreferences() }
        return set(scope, .removed, at: now)
    }

    private mutating func set(_ scope: Mute.Scope, _ state: MuteState, at now: Date) -> SharedPreferences {
        var change = SharedPreferences()
        let stamped = Stamped(state, changedAt: Self.stamp(now, after: mutes[scope]?.changedAt))
        change.mutes[scope] = stamped
        mutes[scope] = stamped
        return change
    }

    // MARK: Changes from the other device

    /// Takes each item of `other` that is newer than this one's; returns the items taken (empty:
    /// nothing changed, as for an echo or an older change).
    @discardableResult
    public mutating func merge(_ other: SharedPreferences) -> SharedPreferences {
        var taken = SharedPreferences()
        if let incoming = other.doNotDisturb, incoming.wins(over: doNotDisturb) {
            doNotDisturb = incoming
            taken.doNotDisturb = incoming
        }
        if let incoming = other.quietHours, incoming.wins(over: quietHours) {
            quietHours = incoming
            taken.quietHours = incoming
        }
        for (scope, incoming) in other.mutes where incoming.wins(over: mutes[scope]) {
            mutes[scope] = incoming
            taken.mutes[scope] = incoming
        }
        return taken
    }

    /// Builds a set from stored or received items (the wire's, RelayWire).
    public init(doNotDisturb: Stamped<ManualDoNotDisturb>?, quietHours: Stamped<QuietHours?>?, mutes: [Mute.Scope: Stamped<MuteState>]) {
        self.doNotDisturb = doNotDisturb
        self.quietHours = quietHours
        self.mutes = mutes
    }

    // MARK: Reading

    /// The manual do not disturb as it stands at `now`; `nil` when off or over.
    public func manualDoNotDisturb(at now: Date) -> DoNotDisturb? {
        manualDoNotDisturb.flatMap { $0.isOn(at: now) ? $0 : nil }
    }

    /// The mutes in force at `now`, in a stable order (apps first, then by name).
    public func activeMutes(at now: Date) -> [Mute] {
        allMutes.filter { $0.isInForce(at: now) }
    }

    /// Forgets tombstones and ended mutes changed more than `age` (a year) before `now`: by then
    /// the other device has long had the change (it travels in an acknowledged log), unless the
    /// two were apart all that year.
    public mutating func prune(olderThan age: TimeInterval = 365 * 86_400, at now: Date) {
        let horizon = now.addingTimeInterval(-age)
        mutes = mutes.filter { _, stamped in
            guard stamped.changedAt < horizon else { return true }
            switch stamped.value {
            case .removed: return false
            case .muted(let until): return until.map { $0 > now } ?? true
            }
        }
    }

    /// The manual do not disturb as set, ended or not (`DoNotDisturb.isOn` tells); `nil` when off.
    public var manualDoNotDisturb: DoNotDisturb? {
        guard case .on(let until) = doNotDisturb?.value else { return nil }
        return DoNotDisturb(source: .manual, until: until)
    }

    /// Every mute set, ended or not (`Mute.silences` tells), in the order of `activeMutes`.
    public var allMutes: [Mute] {
        mutes.compactMap { scope, stamped -> Mute? in
            guard case .muted(let until) = stamped.value else { return nil }
            return Mute(scope, until: until)
        }
        .sorted { $0.scope.sortKey < $1.scope.sortKey }
    }

    /// These wishes without any thread's mute or its tombstone: threads are named by the keys
    /// one phone gave them, which another phone gives to other threads.
    public func forgettingThreads() -> SharedPreferences {
        var kept = self
        kept.mutes = mutes.filter { scope, _ in if case .app = scope { true } else { false } }
        return kept
    }

    /// The policy `base` (the configuration's) with these wishes: the manual do not disturb
    /// when `doNotDisturbShared` and set, the quiet hours once set, the mutes. What has ended by
    /// its time stays in it and holds nothing back (the policy compares with its own `now`).
    public func applied(to base: AlertPolicy, doNotDisturbShared: Bool = true) -> AlertPolicy {
        var policy = base
        if doNotDisturbShared, let manual = manualDoNotDisturb { policy.doNotDisturb = manual }
        if let quietHours { policy.quietHours = quietHours.value }
        policy.mutes += allMutes
        return policy
    }
}

extension SharedPreferences: CustomStringConvertible {
    /// `do not disturb on until …; muted app "Mail" until …; unmuted thread "4" of "Chat"`, for logs.
    public var description: String {
        var parts: [String] = []
        switch doNotDisturb?.value {
        case .on(let until)?: parts.append("do not disturb on" + (until.map { " until \($0.formatted(.iso8601))" } ?? ""))
        case .off?: parts.append("do not disturb off")
        case nil: break
        }
        if let quietHours {
            parts.append(quietHours.value.map { "quiet hours \($0)" } ?? "no quiet hours")
        }
        for (scope, stamped) in mutes.sorted(by: { $0.key.sortKey < $1.key.sortKey }) {
            switch stamped.value {
            case .muted(let until): parts.append(Mute(scope, until: until).description)
            case .removed: parts.append("un" + Mute(scope).description)
            }
        }
        return parts.isEmpty ? "nothing" : parts.joined(separator: "; ")
    }
}

/// A value two changes made in the same millisecond are ordered by, the same on both devices:
/// its times to the millisecond, as the wire carries them.
public protocol TieBreaking {
    /// The value in a fixed, total order.
    var tieKey: String { get }
}

extension SharedPreferences.ManualDoNotDisturb: TieBreaking {
    public var tieKey: String {
        switch self {
        case .off: "0"
        case .on(let until): "1:" + SharedPreferences.millisecondKey(until)
        }
    }
}

extension SharedPreferences.MuteState: TieBreaking {
    public var tieKey: String {
        switch self {
        case .removed: "0"
        case .muted(let until): "1:" + SharedPreferences.millisecondKey(until)
        }
    }
}

extension Optional: TieBreaking where Wrapped == QuietHours {
    public var tieKey: String { map { "1:\($0)" } ?? "0" }
}

extension SharedPreferences {
    /// A time as a fixed-width count of milliseconds (`nil`, never, last), for `tieKey`.
    static func millisecondKey(_ date: Date?) -> String {
        guard let date else { return "~" }
        // Within ±9e15 ms (285,000 years): shifted to be positive, the digits sort as the times.
        let millis = Int64(min(max((date.timeIntervalSince1970 * 1000).rounded(), -9e15), 9e15))
        return String(format: "%020lld", millis + 9_000_000_000_000_000)
    }
}

extension Mute.Scope {
    /// Apps before threads, each by name: the order lists and the wire keep.
    public var sortKey: String {
        switch self {
        case .app(let app): "0\u{1F}\(app)"
        case .thread(let app, let thread): "1\u{1F}\(app)\u{1F}\(thread)"
        }
    }
}
