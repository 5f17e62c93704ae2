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

    private var lastHeard: ContinuousClock.Instant
    private var outstandingPing: (id: UInt64, sentAt: ContinuousClock.Instant)?
    private var nextPingID: UInt64 = 1
    /// The latest measured round-trip time.
    public private(set) var roundTripTime: Duration?

    /// Starts monitoring a connection that came up at `now`.
    public init(interval: Duration = .seconds(5), timeout: Duration = .seconds(15), now: ContinuousClock.Instant) {
        precondition(timeout > interval, "the timeout must be longer than the ping interval")
        self.interval = interval
        self.timeout = timeout
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

    /// Time passed: ping, declare the link dead, or nothing.
    public mutating func tick(at now: ContinuousClock.Instant) -> Step? {
        let silence = now - lastHeard
        if silence >= timeout { return .dead(silentFor: silence) }
        guard silence >= interval else { return nil }
        if let ping = outstandingPing, now - ping.sentAt < interval { return nil }
        let id = nextPingID
        nextPingID += 1
        outstandingPing = (id, now)
        return .ping(id)
    }

    /// When the next `tick` could have something to do, for the caller's timer.
    public var nextDeadline: ContinuousClock.Instant {
        let nextPing = outstandingPing.map { $0.sentAt + interval } ?? lastHeard + interval
        return min(max(nextPing, lastHeard + interval), lastHeard + timeout)
    }
}
