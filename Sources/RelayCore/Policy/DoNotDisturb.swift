public import Foundation

/// Do not disturb, as one source turned it on, until a time or until turned off.
public struct DoNotDisturb: Sendable, Hashable, CustomStringConvertible {
    /// Who turned it on.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The user, with `relayctl dnd` or the wearable's toggle.
        case manual
        /// An application's `Inhibit` call on the phone's notification server.
        case inhibitor(application: String)
        /// The phone's desktop (Plasma's `Inhibited`, GNOME's banners off, dunst paused).
        case desktop(String)
        /// The quiet hours in the configuration.
        case quietHours
        /// The phone's silent sync (`Settings.silent`).
        case silentSync

        public var description: String {
            switch self {
            case .manual: "turned on by hand"
            case .inhibitor(let application): "inhibited by \(application)"
            case .desktop(let desktop): "from \(desktop)"
            case .quietHours: "quiet hours"
            case .silentSync: "the phone's silent sync"
            }
        }
    }

    /// Who turned it on.
    public var source: Source
    /// When it ends by itself; `nil`: when turned off.
    public var until: Date?

    /// Do not disturb from `source`, until `until` (`nil`: until turned off).
    public init(source: Source, until: Date? = nil) {
        self.source = source
        self.until = until
    }

    /// Whether it is on at `now`.
    public func isOn(at now: Date) -> Bool { until.map { now < $0 } ?? true }

    /// `do not disturb (turned on by hand) until 2026-11-29T18:00:00Z`.
    public var description: String {
        "do not disturb (\(source))" + (until.map { " until \($0.formatted(.iso8601))" } ?? "")
    }
}
