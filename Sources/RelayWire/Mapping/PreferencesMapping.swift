import Foundation
public import RelayCore

/// The shared preferences on the wire (`Preferences`, Docs/PROTOCOL.md): times in milliseconds
/// of the phone's clock, a thread named by its key. The wire's form is also what both agents
/// store, so that what is kept and what is sent cannot differ.
extension Relay_V1_Preferences {
    /// The wire's form of `preferences`.
    public init(_ preferences: SharedPreferences) {
        self.init()
        if let stamped = preferences.doNotDisturb {
            doNotDisturb.changedAtMillis = Self.millis(stamped.changedAt)
            if case .on(let until) = stamped.value {
                doNotDisturb.on = true
                doNotDisturb.untilMillis = until.map(Self.millis) ?? 0
            }
        }
        if let stamped = preferences.quietHours {
            quietHours.changedAtMillis = Self.millis(stamped.changedAt)
            if let hours = stamped.value {
                quietHours.on = true
                quietHours.startMinute = UInt32(hours.start)
                quietHours.endMinute = UInt32(hours.end)
                quietHours.weekdays = hours.weekdays.reduce(0) { $0 | (1 << UInt32($1)) }
                quietHours.timeZone = hours.timeZone.identifier
            }
        }
        mutes = preferences.mutes.sorted { $0.key.sortKey < $1.key.sortKey }.compactMap { scope, stamped in
            var mute = Relay_V1_MutePreference()
            mute.changedAtMillis = Self.millis(stamped.changedAt)
            switch scope {
            case .app(let app): mute.app = app
            case .thread(let app, let thread):
                // A thread is named by its key; a name that is none (which the agents refuse
                // when a mute is set) is left out rather than sent as the whole app.
                guard let key = UInt32(thread), key > 0, String(key) == thread else { return nil }
                mute.app = app
                mute.threadKey = key
            }
            switch stamped.value {
            case .removed: mute.removed = true
            case .muted(let until): mute.untilMillis = until.map(Self.millis) ?? 0
            }
            return mute
        }
    }

    /// `preferences` as changes of at most `maximumMutes` mutes each (the first with do not
    /// disturb and the quiet hours), so that each fits in a frame however many there are;
    /// merging item by item, the receiver ends with the same whichever way they are split.
    public static func split(_ preferences: SharedPreferences) -> [Relay_V1_Preferences] {
        let whole = Relay_V1_Preferences(preferences)
        guard whole.mutes.count > maximumMutes else { return whole.isEmpty ? [] : [whole] }
        var parts: [Relay_V1_Preferences] = []
        for start in stride(from: 0, to: whole.mutes.count, by: maximumMutes) {
            var part = start == 0 ? whole : Relay_V1_Preferences()
            part.mutes = Array(whole.mutes[start..<min(start + maximumMutes, whole.mutes.count)])
            parts.append(part)
        }
        return parts
    }

    /// Whether it carries nothing.
    public var isEmpty: Bool { !hasDoNotDisturb && !hasQuietHours && mutes.isEmpty }

    /// Why it cannot be taken; `nil` when it can (`WireLimits`).
    public var problem: String? {
        let times = [doNotDisturb.changedAtMillis, doNotDisturb.untilMillis, quietHours.changedAtMillis]
            + mutes.flatMap { [$0.changedAtMillis, $0.untilMillis] }
        if let wrong = times.first(where: { !Self.timeLimits.contains($0) }) {
            return "preferences: \(wrong) ms is not a time between the years 1 and 9999"
        }
        if hasQuietHours, quietHours.on {
            if quietHours.startMinute >= 1440 || quietHours.endMinute >= 1440 {
                return "preferences.quiet_hours: \(quietHours.startMinute)–\(quietHours.endMinute) are not minutes of a day"
            }
            // A zone this device's tzdata lacks is not an error of the change: that item is
            // skipped (`preferences`), the rest taken.
            if quietHours.timeZone.utf8.count > Self.maximumTimeZoneBytes {
                return "preferences.quiet_hours.time_zone is \(quietHours.timeZone.utf8.count) bytes, more than \(Self.maximumTimeZoneBytes)"
            }
        }
        if mutes.count > Self.maximumMutes { return "preferences: \(mutes.count) mutes, more than \(Self.maximumMutes)" }
        if let long = mutes.first(where: { $0.app.utf8.count > Self.maximumAppBytes }) {
            return "preferences: an app name of \(long.app.utf8.count) bytes, more than \(Self.maximumAppBytes)"
        }
        return nil
    }

    /// The most mutes one change carries: with the longest app names, a change of them still
    /// fits in a frame (FrameFitTests).
    public static let maximumMutes = 48
    /// The longest time zone name, in bytes.
    public static let maximumTimeZoneBytes = 64
    /// The longest app name a mute names, in bytes.
    public static let maximumAppBytes = 256
    static let timeLimits = (WireLimits.timestamps.lowerBound * 1000)...(WireLimits.timestamps.upperBound * 1000)

    /// The preferences it carries; check `problem` first.
    public var preferences: SharedPreferences {
        let dnd = hasDoNotDisturb
            ? SharedPreferences.Stamped<SharedPreferences.ManualDoNotDisturb>(
                doNotDisturb.on ? .on(until: Self.date(doNotDisturb.untilMillis)) : .off, changedAt: Self.date(doNotDisturb.changedAtMillis) ?? Date(timeIntervalSince1970: 0))
            : nil
        var hours: SharedPreferences.Stamped<QuietHours?>?
        if hasQuietHours {
            let changedAt = Self.date(quietHours.changedAtMillis) ?? Date(timeIntervalSince1970: 0)
            if !quietHours.on {
                hours = .init(nil, changedAt: changedAt)
            } else if quietHours.startMinute < 1440, quietHours.endMinute < 1440, let zone = TimeZone(identifier: quietHours.timeZone) {
                hours = .init(
                    QuietHours(
                        start: Int(quietHours.startMinute), end: Int(quietHours.endMinute),
                        weekdays: Set((1...7).filter { quietHours.weekdays & (1 << UInt32($0)) != 0 }), timeZone: zone),
                    changedAt: changedAt)
            }
            // Else a zone this device does not know: the item is left out, the quiet hours held stay.
        }
        var muted: [Mute.Scope: SharedPreferences.Stamped<SharedPreferences.MuteState>] = [:]
        for mute in mutes {
            let scope: Mute.Scope = mute.threadKey == 0 ? .app(mute.app) : .thread(app: mute.app, thread: String(mute.threadKey))
            let stamped = SharedPreferences.Stamped<SharedPreferences.MuteState>(
                mute.removed ? .removed : .muted(until: Self.date(mute.untilMillis)), changedAt: Self.date(mute.changedAtMillis) ?? Date(timeIntervalSince1970: 0))
            if stamped.wins(over: muted[scope]) { muted[scope] = stamped }
        }
        return SharedPreferences(doNotDisturb: dnd, quietHours: hours, mutes: muted)
    }

    /// Milliseconds, held within the wire's years (a date the agents refused to set cannot trap here).
    static func millis(_ date: Date) -> Int64 {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        if millis >= Double(timeLimits.upperBound) { return timeLimits.upperBound }
        if millis.isNaN || millis <= Double(timeLimits.lowerBound) { return timeLimits.lowerBound }
        return Int64(millis)
    }
    /// `nil` for 0, the wire's "none".
    static func date(_ millis: Int64) -> Date? { millis == 0 ? nil : Date(timeIntervalSince1970: Double(millis) / 1000) }
}

