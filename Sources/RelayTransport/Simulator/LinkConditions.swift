/// What the simulated link does to traffic: the qualities of a Raspberry Pi's UART
/// Bluetooth by default, plus failures to test recovery with.
public struct LinkConditions: Sendable, Hashable {
    /// One-way delay added to every segment.
    public var latency: Duration
    /// Throughput in each direction; about 80 KB/s is what a Pi's UART Bluetooth sustains.
    public var bytesPerSecond: Int
    /// The largest segment delivered at once; reads on the far side see at most this much.
    public var mtu: Int
    /// The chance that the connection drops after any segment, for chaos runs.
    public var dropProbability: Double
    /// Scheduled outages, as offsets from the simulator's start: connections in progress
    /// drop and new ones are refused while one lasts.
    public var outages: [Range<Duration>]
    /// Seeds the random drops, so a run can be replayed.
    public var seed: UInt64

    /// Creates conditions; the defaults are a healthy RFCOMM link.
    public init(
        latency: Duration = .milliseconds(15), bytesPerSecond: Int = 80_000, mtu: Int = 1013,
        dropProbability: Double = 0, outages: [Range<Duration>] = [], seed: UInt64 = 1
    ) {
        precondition(bytesPerSecond > 0 && mtu > 0, "bandwidth and MTU must be positive")
        self.latency = latency
        self.bytesPerSecond = bytesPerSecond
        self.mtu = mtu
        self.dropProbability = dropProbability
        self.outages = outages
        self.seed = seed
    }

    /// Whether an outage is in progress at `offset` from the start.
    public func inOutage(at offset: Duration) -> Bool {
        outages.contains { $0.contains(offset) }
    }
}

/// Schedules one direction's bytes: cuts them into MTU segments and says when each
/// arrives, given the bandwidth and latency. Pure: the caller passes the time.
public struct LinkShaper: Sendable {
    /// A piece of the stream and when the far side receives it.
    public struct Segment: Sendable, Hashable {
        /// How many bytes, from where the previous segment ended.
        public var length: Int
        /// When it arrives.
        public var arrival: ContinuousClock.Instant
    }

    private let conditions: LinkConditions
    private var busyUntil: ContinuousClock.Instant?

    /// When the link has sent everything scheduled so far (the latency still to come); `nil`
    /// before anything was.
    public var sentBy: ContinuousClock.Instant? { busyUntil }

    /// A shaper for one direction.
    public init(conditions: LinkConditions) {
        self.conditions = conditions
    }

    /// Schedules `count` bytes handed to the link at `now`: each segment occupies the link
    /// for its transmission time, then travels for the latency.
    public mutating func schedule(_ count: Int, at now: ContinuousClock.Instant) -> [Segment] {
        var segments: [Segment] = []
        var remaining = count
        var cursor = max(now, busyUntil ?? now)
        while remaining > 0 {
            let length = min(remaining, conditions.mtu)
            cursor += .nanoseconds(Int64(length) * 1_000_000_000 / Int64(conditions.bytesPerSecond))
            segments.append(Segment(length: length, arrival: cursor + conditions.latency))
            remaining -= length
        }
        busyUntil = cursor
        return segments
    }
}
