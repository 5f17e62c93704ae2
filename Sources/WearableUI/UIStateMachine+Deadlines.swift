public import Foundation

/// When the next tick is due: time alone changes what the wearable shows only at these
/// instants, so the agent sleeps until the first of them instead of ticking every second.
public struct UIDeadlines: Hashable, Sendable {
    /// On the wall clock: the next minute, while the panel is on (the face's time, and do not
    /// disturb and mutes ending, are shown to the minute). `nil` while the panel is blanked:
    /// nobody sees the face, and the tick that comes with the key waking it brings it up to date.
    public var wallClock: Date?
    /// On uptime: the short look's end, or the panel blanking when it has been idle long enough.
    public var uptime: Duration?

    /// Deadlines on either clock.
    public init(wallClock: Date? = nil, uptime: Duration? = nil) {
        self.wallClock = wallClock
        self.uptime = uptime
    }

    /// How long from `now` and `uptime` until the first deadline; `nil` when there is none.
    public func wait(now: Date, uptime current: Duration) -> Duration? {
        let untilWall = wallClock.map { Duration.milliseconds(Int64(($0.timeIntervalSince(now) * 1000).rounded(.up))) }
        let untilUptime = uptime.map { $0 - current }
        switch (untilWall, untilUptime) {
        case (let wall?, let up?): return max(.zero, min(wall, up))
        case (let wall?, nil): return max(.zero, wall)
        case (nil, let up?): return max(.zero, up)
        case (nil, nil): return nil
        }
    }
}

extension UIStateMachine {
    /// The deadlines after the events fed so far (the last tick's time included).
    public var deadlines: UIDeadlines {
        var deadlines = UIDeadlines()
        if state.panelAwake {
            let seconds = state.now.timeIntervalSince1970
            deadlines.wallClock = Date(timeIntervalSince1970: (seconds / 60).rounded(.down) * 60 + 60)
        }
        var uptime: [Duration] = []
        if case .shortLook(_, let shownAt) = state.screen {
            uptime.append(shownAt + .seconds(configuration.shortLookDuration))
        }
        if let blankAfter = configuration.blankAfter, state.panelAwake, !state.panelCannotBlank {
            if case .pairing = state.screen {} else { uptime.append(state.lastActivity + .seconds(blankAfter)) }
        }
        deadlines.uptime = uptime.min()
        return deadlines
    }
}
