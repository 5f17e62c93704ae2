/// The `[link]` section both agents share: heartbeats and reconnection.
public struct LinkSettings: Sendable, Hashable {
    /// Seconds between heartbeats on an idle link.
    public var heartbeatSeconds: Int
    /// Seconds without a frame after which the link counts as lost.
    public var timeoutSeconds: Int
    /// The first wait before reconnecting, in seconds; it doubles after each failure.
    public var reconnectMinSeconds: Int
    /// The longest wait between reconnection attempts, in seconds.
    public var reconnectMaxSeconds: Int

    /// The section's keys.
    public enum Keys {
        /// `link.heartbeat_seconds`.
        public static let heartbeatSeconds: ConfigKey<Int> = .integer(
            "link.heartbeat_seconds", default: 5, range: 1...60, unit: "seconds",
            "Seconds between heartbeats on an idle link; a lost link is noticed within heartbeat plus timeout.")
        /// `link.timeout_seconds`.
        public static let timeoutSeconds: ConfigKey<Int> = .integer(
            "link.timeout_seconds", default: 15, range: 3...300, unit: "seconds",
            "Seconds without any frame from the other agent after which the link counts as lost and is closed.")
        /// `link.reconnect_min_seconds`.
        public static let reconnectMinSeconds: ConfigKey<Int> = .integer(
            "link.reconnect_min_seconds", default: 1, range: 1...60, unit: "seconds",
            "The first wait before reconnecting after the link is lost; it doubles after each failed attempt (at most 5 s for two minutes after a session ends).")
        /// `link.reconnect_max_seconds`.
        public static let reconnectMaxSeconds: ConfigKey<Int> = .integer(
            "link.reconnect_max_seconds", default: 60, range: 1...3600, unit: "seconds",
            "The longest wait between reconnection attempts.")
    }

    /// The `[link]` section for a schema. Both files accept every key, so one `[link]` section
    /// can be copied between them; an agent that only listens (`reconnects: false`) says in
    /// the documentation that it ignores the reconnection keys.
    static func section(reconnects: Bool) -> ConfigSection {
        let reconnection = [Keys.reconnectMinSeconds.erased, Keys.reconnectMaxSeconds.erased].map { key in
            reconnects ? key : key.documented(
                as: key.summary + " relay-wearable does not use it: it listens, and the phone reconnects.")
        }
        return ConfigSection(
            "link", "The link between the agents: heartbeats, loss detection and reconnection.",
            keys: [Keys.heartbeatSeconds.erased, Keys.timeoutSeconds.erased] + reconnection)
    }

    /// The rules between the section's keys.
    static let checks = [
        ConfigCheck(
            paths: [Keys.timeoutSeconds.path, Keys.heartbeatSeconds.path],
            summary: "`link.timeout_seconds` is at least twice `link.heartbeat_seconds`"
        ) { values in
            let timeout = values[Keys.timeoutSeconds], heartbeat = values[Keys.heartbeatSeconds]
            guard timeout < 2 * heartbeat else { return nil }
            return "link.timeout_seconds (\(timeout)) must be at least twice link.heartbeat_seconds (\(heartbeat)), "
                + "or one late heartbeat would drop the link"
        },
        ConfigCheck(
            paths: [Keys.reconnectMinSeconds.path, Keys.reconnectMaxSeconds.path],
            summary: "`link.reconnect_min_seconds` is at most `link.reconnect_max_seconds`"
        ) { values in
            let least = values[Keys.reconnectMinSeconds], most = values[Keys.reconnectMaxSeconds]
            guard least > most else { return nil }
            return "link.reconnect_min_seconds (\(least)) must not exceed link.reconnect_max_seconds (\(most))"
        },
    ]

    /// The settings from checked values.
    public init(_ values: ConfigValues) {
        heartbeatSeconds = values[Keys.heartbeatSeconds]
        timeoutSeconds = values[Keys.timeoutSeconds]
        reconnectMinSeconds = values[Keys.reconnectMinSeconds]
        reconnectMaxSeconds = values[Keys.reconnectMaxSeconds]
    }

    /// The heartbeat interval as a duration.
    public var heartbeat: Duration { .seconds(heartbeatSeconds) }
    /// The loss timeout as a duration.
    public var timeout: Duration { .seconds(timeoutSeconds) }
}
