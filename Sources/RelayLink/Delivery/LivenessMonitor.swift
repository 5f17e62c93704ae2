/// Detects a dead link within seconds: pings after a quiet interval, gives up after a
/// silence longer than the timeout, and measures the round-trip time from the pongs.
///
/// Time is passed in as instants of one monotonic clock; nothing here reads a clock.
public struct LivenessMonitor: Sendable {
    /// What the session must do.
    public enum Step: Sendable, Hashable {
        /// Send a heartbeat ping with this id.
        case ping(UInt64)
        /// The peer has been silent too long: close the connection.
        case dead(silentFor: Duration)
    }

    /// Send a ping when nothing has been heard for this long.
    public let interval: Duration
    /// Declare the link dead when nothing has been heard for this long.
    public let timeout: Duration
    /// On an idle link (nothing of this side's waits for the peer's acknowledgement) a ping is
    /// sent only after this long, and the link is dead after this long plus the time a peer has
    /// to answer a ping (`timeout - interval`). Equal to `interval` where the transport reports
    /// no loss itself; far longer on RFCOMM, whose baseband supervises the link.
    public let idleInterval: Duration

    private var lastHeard: ContinuousClock.Instant
    private var outstandingPing: (id: UInt64, sentAt: ContinuousClock.Instant)?
    private var nextPingID: UInt64 = 1
    /// The latest measured round-trip time.
    public private(set) var roundTripTime: Duration?

    /// Starts monitoring a connection that came up at `now`.
    public init(
        interval: Duration = .seconds(5), timeout: Duration = .seconds(15), idleInterval: Duration? = nil,
        now: ContinuousClock.Instant
    ) {
        precondition(timeout > interval, "the timeout must be longer than the ping interval")
        self.interval = interval
        self.timeout = timeout
        self.idleInterval = max(idleInterval ?? interval, interval)
        lastHeard = now
    }

    /// Any frame arrived.
    public mutating func heard(at now: ContinuousClock.Instant) {
        lastHeard = max(lastHeard, now)
    }

    /// A pong arrived: measures the round trip if it answers the outstanding ping.
    public mutating func pong(_ id: UInt64, at now: ContinuousClock.Instant) {
        heard(at: now)
        if let ping = outstandingPing, ping.id == id {
            roundTripTime = now - ping.sentAt
            outstandingPing = nil
        }
    }

    /// The instant from which `tick` has something to do (a ping, or the link declared dead),
    /// given what has been heard so far: a connection's timer sleeps until then instead of
    /// ticking. Hearing the peer moves it later; it moves earlier only when `idle` ends.
    public func nextDeadline(idle: Bool = false) -> ContinuousClock.Instant {
        let interval = idle ? idleInterval : interval
        let dead = lastHeard + interval + (timeout - self.interval)
        var ping = lastHeard + interval
        if let outstandingPing { ping = max(ping, outstandingPing.sentAt + self.interval) }
        return min(ping, dead)
    }

    /// Time passed: ping, declare the link dead, or nothing. `idle`: nothing of this side waits
    /// for the peer's acknowledgement, so the idle interval applies.
    public mutating func tick(at now: ContinuousClock.Instant, idle: Bool = false) -> Step? {
        let interval = idle ? idleInterval : interval
        let timeout = interval + (self.timeout - self.interval)
        let silence = now - lastHeard
        if silence >= timeout { return .dead(silentFor: silence) }
        guard silence >= interval else { return nil }
        if let ping = outstandingPing, now - ping.sentAt < self.interval { return nil }
        let id = nextPingID
        nextPingID += 1
        outstandingPing = (id, now)
        return .ping(id)
    }
}
