/// The deadlines a connection keeps, each for its own failure, so that one cannot fire in
/// place of another: a slow handshake is not a silent session, and a silent peer is not one
/// that stopped reading.
public struct LinkTimeouts: Sendable, Hashable {
    /// How long a quiet session waits before it pings while something of this side waits for
    /// the peer's acknowledgement.
    public var heartbeat: Duration
    /// How long a quiet session waits before it pings when nothing waits for an acknowledgement;
    /// the silence deadline grows by as much. Equal to `heartbeat` unless the transport reports
    /// a lost link itself (``supervisedIdleHeartbeat``).
    public var idleHeartbeat: Duration
    /// How long the handshake may take, from the first frame written to the session.
    public var handshake: Duration
    /// How long an established session may hear nothing from the peer before the link is dead.
    public var silence: Duration
    /// How long a write may see none of its bytes taken by the peer before the peer is taken to
    /// have stopped reading.
    public var writeStall: Duration

    /// Deadlines with their own values; `silence` must be longer than `heartbeat`, so that a
    /// live peer has time to answer a ping.
    public init(heartbeat: Duration, handshake: Duration, silence: Duration, writeStall: Duration, idleHeartbeat: Duration? = nil) {
        precondition(silence > heartbeat, "the silence deadline must be longer than the heartbeat")
        self.heartbeat = heartbeat
        self.idleHeartbeat = max(idleHeartbeat ?? heartbeat, heartbeat)
        self.handshake = handshake
        self.silence = silence
        self.writeStall = writeStall
    }

    /// Deadlines from the configuration's two figures: the handshake and a stalled write get
    /// as long as the dead-link `timeout`.
    public init(heartbeat: Duration, timeout: Duration, idleHeartbeat: Duration? = nil) {
        self.init(heartbeat: heartbeat, handshake: timeout, silence: timeout, writeStall: timeout, idleHeartbeat: idleHeartbeat)
    }

    /// The idle heartbeats on RFCOMM: the baseband supervises the link and the kernel ends the
    /// socket when it is lost, so an idle session pings only to catch a peer process that
    /// hangs. The phone pings after 75 s of quiet and the wearable after 90 s, so that while the
    /// phone lives only the phone pings: a ping and its answer, one frame each way, under 60
    /// frames an hour each way, and a real radio can stay in sniff mode.
    public static let supervisedIdleHeartbeat = (phone: Duration.seconds(75), wearable: Duration.seconds(90))

    /// A ping after 5 s of quiet, and 15 s for each deadline.
    public static let standard = LinkTimeouts(heartbeat: .seconds(5), timeout: .seconds(15))

    /// How often the connection looks at its deadlines: a fifth of the shortest, so that each is
    /// noticed within a fifth of its length after it passes.
    var tick: Duration { min(heartbeat, handshake, silence, writeStall) / 5 }
}
