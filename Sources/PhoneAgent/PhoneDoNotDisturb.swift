public import Foundation
public import RelayCore

/// The phone's do not disturb from its sources, as a value: the user's (`relayctl dnd` or the
/// wearable's toggle, until a time or until turned off, shared with the wearable with the
/// mutes in `SharedPreferences`) and applications' inhibitions (`Inhibit` on the notification
/// server, as KDE Plasma offers it), each held until its cookie is released or its caller leaves
/// the bus. The phone's own notifications that would alert then arrive silently on the wearable,
/// except time-sensitive and critical ones (Docs/POLICY.md).
public struct PhoneDoNotDisturb: Sendable, Hashable {
    /// One application's inhibition.
    public struct Inhibition: Sendable, Hashable {
        /// The cookie `Inhibit` returned.
        public var cookie: UInt32
        /// The application, by the desktop entry it gave (or its bus name when it gave none).
        public var application: String
        /// Why, as it said.
        public var reason: String
        /// Its unique bus name: the inhibition ends when it leaves the bus.
        public var owner: String
    }

    /// The wishes shared with the wearable: the manual do not disturb (`relayctl dnd`, the
    /// wearable's toggle), the quiet hours, the mutes.
    public private(set) var preferences: SharedPreferences
    /// The applications' inhibitions, oldest first.
    public private(set) var inhibitions: [Inhibition] = []
    /// The desktops whose own do not disturb is on (monitor mode: KDE Plasma's `Inhibited`,
    /// dunst paused), in the order they turned it on.
    public private(set) var desktops: [String] = []
    private var lastCookie: UInt32 = 0

    /// No inhibitions; `preferences` as stored.
    public init(preferences: SharedPreferences = SharedPreferences()) {
        self.preferences = preferences
    }

    /// Do not disturb turned on by hand, until a time or until turned off.
    public var manual: DoNotDisturb? { preferences.manualDoNotDisturb }

    /// Changes the shared wishes; returns the change (empty when nothing changed), for the wearable.
    public mutating func changePreferences(_ body: (inout SharedPreferences) -> SharedPreferences) -> SharedPreferences {
        body(&preferences)
    }

    /// Forgets tombstones and ended mutes older than a month (`SharedPreferences.prune`).
    public mutating func prunePreferences(at now: Date) {
        preferences.prune(at: now)
    }

    /// Takes the newer items of the wearable's `change`; returns those taken.
    public mutating func merge(_ change: SharedPreferences) -> SharedPreferences {
        preferences.merge(change)
    }

    /// Adds an inhibition and returns its cookie (never 0, never one in use).
    public mutating func inhibit(application: String, reason: String, owner: String) -> UInt32 {
        repeat { lastCookie = lastCookie &+ 1 } while lastCookie == 0 || inhibitions.contains { $0.cookie == lastCookie }
        inhibitions.append(Inhibition(cookie: lastCookie, application: application, reason: reason, owner: owner))
        return lastCookie
    }

    /// The desktop's own do not disturb turned on or off; whether that changed anything.
    @discardableResult
    public mutating func setDesktop(_ desktop: String, on: Bool) -> Bool {
        let wasOn = desktops.contains(desktop)
        guard wasOn != on else { return false }
        if on { desktops.append(desktop) } else { desktops.removeAll { $0 == desktop } }
        return true
    }

    /// Releases the inhibition `cookie`, when `owner` holds it; whether one was released.
    @discardableResult
    public mutating func uninhibit(cookie: UInt32, owner: String) -> Bool {
        guard let index = inhibitions.firstIndex(where: { $0.cookie == cookie && $0.owner == owner }) else { return false }
        inhibitions.remove(at: index)
        return true
    }

    /// Releases every inhibition of `owner`, which left the bus; those released.
    public mutating func ownerLeft(_ owner: String) -> [Inhibition] {
        let leaving = inhibitions.filter { $0.owner == owner }
        inhibitions.removeAll { $0.owner == owner }
        return leaving
    }

    /// Do not disturb as it stands at `now`: the manual one while it lasts, else the desktop's,
    /// else the oldest inhibition; `nil` when off.
    public func current(at now: Date) -> DoNotDisturb? {
        if let manual, manual.isOn(at: now) { return manual }
        if let desktop = desktops.first { return DoNotDisturb(source: .desktop(desktop)) }
        return inhibitions.first.map { DoNotDisturb(source: .inhibitor(application: $0.application)) }
    }

    /// What the mirror holds back an alert for at `now`: do not disturb and the mutes (the
    /// quiet hours and the gap are the wearable's to keep).
    public func policy(at now: Date) -> AlertPolicy {
        AlertPolicy(doNotDisturb: current(at: now), mutes: preferences.activeMutes(at: now), minimumGap: 0)
    }
}
