/// The phone agent's settings (`relay-phone`, `phone.toml`). Empty strings in the file mean
/// "the agent's default" and arrive here as `nil`.
public struct PhoneConfiguration: AgentConfiguration, Hashable {
    /// How to reach the wearable.
    public var transport: TransportKind
    /// The wearable's endpoint (`unix:PATH`, `tcp:HOST:PORT`, `rfcomm:ADDRESS/CHANNEL`), or `nil` for the default.
    public var peer: String?
    /// The bus to serve `org.freedesktop.Notifications` on: `session`, `system` or an address.
    public var bus: String
    /// The system bus for logind's lock state: `system` or an address.
    public var systemBus: String
    /// The control socket's path, or `nil` for the default.
    public var controlSocket: String?
    /// The group whose members may use the control socket too, or `nil` for none.
    public var controlGroup: String?
    /// The state directory, or `nil` for the default.
    public var stateDirectory: String?
    /// The name shown when pairing, or `nil` for the host name.
    public var deviceName: String?
    /// The language tag for placeholders and plural rules, or `nil` for the environment's.
    public var language: String?
    /// Heartbeats and reconnection.
    public var link: LinkSettings
    /// What reaches the wearable, and how much of it.
    public var mirror: MirrorSettings
    /// The Bluetooth adapter (`hci0` or its address), or `nil` for the first.
    public var bluetoothAdapter: String?
    /// The wearable's Bluetooth address, or `nil` for the one bonded device offering Relay's service.
    public var wearableAddress: String?
    /// The filter rules file, or `nil` for `filters.toml` beside the configuration file.
    public var filterRulesFile: String?
    /// The canned replies, then the emoji ones, offered on the wearable for every text-input action.
    public var cannedReplies: [String]

    /// The `[mirror]` section.
    public struct MirrorSettings: Sendable, Hashable {
        /// What the wearable gets while the phone is unlocked.
        public var whenUnlocked: UnlockedMirroring
        /// What the phone counts as while no lock source knows anything.
        public var withoutLockSource: LockFallback
        /// When a notification's text is shown rather than its placeholder.
        public var showPreviews: PreviewVisibility
        /// Notifications posted while the wearable was away and younger than this still alert on reconnect.
        public var offlineAlertWindowSeconds: Int
        /// Whether the desktop's own notification server is kept quiet while the wearable is connected.
        public var onlyWearableAlerts: Bool
    }

    /// The file's keys.
    public enum Keys {
        /// `transport`.
        public static let transport: ConfigKey<TransportKind> = .choice(
            "transport", default: .rfcomm, flag: "--transport",
            "How to reach the wearable: \"rfcomm\" (Bluetooth) or \"loopback\" (both agents on one machine).")
        /// `peer`.
        public static let peer: ConfigKey<String> = .string(
            "peer", .endpoint, flag: "--peer",
            "Where the wearable listens; on the command line a plain path is a Unix socket. Empty: in loopback "
                + "wearable-link.sock in $RUNTIME_DIRECTORY, else $XDG_RUNTIME_DIR/relay, else /tmp/relay-$UID, where relay-wearable listens by default.")
        /// `bus`.
        public static let bus: ConfigKey<String> = .string(
            "bus", .bus(names: ["session", "system"]), default: "session", flag: "--bus",
            "The bus to serve org.freedesktop.Notifications on.")
        /// `system_bus`.
        public static let systemBus: ConfigKey<String> = .string(
            "system_bus", .bus(names: ["system"]), default: "system", flag: "--system-bus",
            "The system bus, where logind reports whether the session is locked.")
        /// `control_socket`.
        public static let controlSocket: ConfigKey<String> = .string(
            "control_socket", .path, flag: "--control-socket",
            "The control socket relayctl talks to. Empty: phone.sock in $RUNTIME_DIRECTORY (a systemd service's), else $XDG_RUNTIME_DIR/relay, else /tmp/relay-$UID/phone.sock.")
        /// `control_group`.
        public static let controlGroup = ControlSocketKeys.controlGroup
        /// `state_directory`.
        public static let stateDirectory: ConfigKey<String> = .string(
            "state_directory", .path, flag: "--state-directory",
            "Where keys and the database live. Empty: $STATE_DIRECTORY (systemd), else $XDG_STATE_HOME/relay/phone, "
                + "else ~/.local/state/relay/phone.")
        /// `device_name`.
        public static let deviceName: ConfigKey<String> = .string(
            "device_name", .text(maximumLength: 64), flag: "--device-name",
            "The name the wearable shows for this phone when pairing. Empty: the host name.")
        /// `language`.
        public static let language: ConfigKey<String> = .string(
            "language", .languageTag, flag: "--language",
            "The language of hidden-preview placeholders and their plural rules. Empty: from LC_ALL, LC_MESSAGES or LANG.")
        /// `bluetooth.adapter`.
        public static let bluetoothAdapter: ConfigKey<String> = .string(
            "bluetooth.adapter", .text(maximumLength: 32), flag: "--adapter",
            "The Bluetooth adapter with the rfcomm transport: its name (hci0) or address. Empty: the first one bluetoothd reports.")
        /// `bluetooth.wearable_address`.
        public static let wearableAddress: ConfigKey<String> = .string(
            "bluetooth.wearable_address", .text(maximumLength: 17), flag: "--wearable-address",
            "The wearable's Bluetooth address (01:23:45:67:89:AB) with the rfcomm transport. Empty: the one bonded device "
                + "that offers Relay's service (relayctl pair bonds it). peer = \"rfcomm:ADDRESS/CHANNEL\" also names a "
                + "channel for connecting with a plain RFCOMM socket when BlueZ cannot connect the profile.")
        /// `mirror.when_unlocked`.
        public static let whenUnlocked: ConfigKey<UnlockedMirroring> = .choice(
            "mirror.when_unlocked", default: .doNotMirror, flag: "--when-unlocked",
            "Notifications that arrive while the phone is unlocked: \"none\" keeps them on the phone, where you are looking "
                + "(they never reach the wearable, not even once the phone locks); \"silent\" syncs them to it without alerting.")
        /// `mirror.without_lock_source`.
        public static let withoutLockSource: ConfigKey<LockFallback> = .choice(
            "mirror.without_lock_source", default: .headless, flag: "--without-lock-source",
            "What the phone counts as while it has no screen that locks (no session, or only a text console, active on "
                + "logind's seat, and no screensaver): \"headless\", a phone board with no screen, counts as locked and "
                + "mirrors everything; \"unlocked\" counts as unlocked, so mirror.when_unlocked decides. A graphical session's "
                + "lock or a screensaver decides whenever there is one.")
        /// `mirror.show_previews`.
        public static let showPreviews: ConfigKey<PreviewVisibility> = .choice(
            "mirror.show_previews", default: .always, flag: "--show-previews",
            "Whether the wearable shows a notification's text: \"always\", or \"never\" (the category's placeholder, "
                + "such as \"2 new messages\"). \"when_unlocked\" acts as \"always\": the wearable alerts only while the "
                + "phone is locked and has no lock of its own.")
        /// `filter.rules_file`.
        public static let filterRulesFile: ConfigKey<String> = .string(
            "filter.rules_file", .path,
            "The filter rules (Docs/POLICY.md, \"Filter rules\"): drop, silence or always alert notifications by app, "
                + "category, level, title or body. Read at start, on SIGHUP and on relayctl filter reload; a file with a "
                + "mistake is refused whole and the rules in force stay. Empty: filters.toml beside this file; none there: no rules.")
        /// `mirror.only_wearable_alerts`.
        public static let onlyWearableAlerts: ConfigKey<Bool> = .boolean(
            "mirror.only_wearable_alerts", default: false,
            "While the wearable is connected, keep the desktop's own notification server quiet, so that only the wearable "
                + "alerts (monitor mode: KDE Plasma through Inhibit, dunst by pausing it, GNOME and Phosh by turning their banners off; Docs/POLICY.md). relay-phone as "
                + "the server shows nothing itself, so there it changes nothing.")
        /// `replies.canned`.
        public static let cannedReplies: ConfigKey<[String]> = .names(
            "replies.canned", default: ["OK", "On my way", "Can't talk now", "Thanks!", "Call you later"],
            "Replies the wearable offers for every text-input action (a KDE inline reply too), after the app's own "
                + "suggestions; each cut to 128 bytes on a character boundary, at most 16 with the emoji. "
                + "`relayctl replies` sets others in their place (and the emoji's), kept on the phone until `relayctl replies reset`.")
        /// `replies.emoji`.
        public static let emojiReplies: ConfigKey<[String]> = .names(
            "replies.emoji", default: ["👍", "❤️", "😂", "🙏"],
            "Emoji replies, offered after replies.canned (each its own row: the wearable has no left or right key).")
        /// `mirror.offline_alert_window_seconds`.
        public static let offlineAlertWindowSeconds: ConfigKey<Int> = .integer(
            "mirror.offline_alert_window_seconds", default: 120, range: 0...3600, unit: "seconds",
            "Reserved; not used by this build, where a notification queued while the wearable was away keeps the alert "
                + "decided when it was posted. Meant: ones younger than this still alert on reconnect, older ones arrive "
                + "silently; 0: none alert.")
    }

    /// Every key of `phone.toml`.
    public static let schema = ConfigSchema(
        role: "phone", title: "the phone agent (relay-phone)",
        sections: [
            ConfigSection(
                "", "The phone agent.",
                keys: [
                    Keys.transport.erased, Keys.peer.erased, Keys.bus.erased, Keys.systemBus.erased,
                    Keys.controlSocket.erased, Keys.controlGroup.erased, Keys.stateDirectory.erased, Keys.deviceName.erased, Keys.language.erased,
                ]),
            LinkSettings.section(reconnects: true),
            ConfigSection(
                "bluetooth", "The Bluetooth transport (transport = \"rfcomm\"; Docs/BLUETOOTH.md).",
                keys: [Keys.bluetoothAdapter.erased, Keys.wearableAddress.erased]),
            ConfigSection(
                "mirror", "What reaches the wearable, and how much of it.",
                keys: [
                    Keys.whenUnlocked.erased, Keys.withoutLockSource.erased, Keys.showPreviews.erased,
                    Keys.onlyWearableAlerts.erased, Keys.offlineAlertWindowSeconds.erased,
                ]),
            ConfigSection("filter", "The user's filter rules.", keys: [Keys.filterRulesFile.erased]),
            ConfigSection(
                "replies", "Replies the wearable offers for text-input actions (Docs/WEARABLE.md).",
                keys: [Keys.cannedReplies.erased, Keys.emojiReplies.erased]),
        ],
        checks: LinkSettings.checks)

    /// The settings from checked values.
    public init(_ values: ConfigValues) {
        transport = values[Keys.transport]
        peer = values[Keys.peer].nonEmpty
        bus = values[Keys.bus]
        systemBus = values[Keys.systemBus]
        controlSocket = values[Keys.controlSocket].nonEmpty
        controlGroup = values[Keys.controlGroup].nonEmpty
        stateDirectory = values[Keys.stateDirectory].nonEmpty
        deviceName = values[Keys.deviceName].nonEmpty
        language = values[Keys.language].nonEmpty
        link = LinkSettings(values)
        bluetoothAdapter = values[Keys.bluetoothAdapter].nonEmpty
        wearableAddress = values[Keys.wearableAddress].nonEmpty
        filterRulesFile = values[Keys.filterRulesFile].nonEmpty
        cannedReplies = values[Keys.cannedReplies] + values[Keys.emojiReplies]
        mirror = MirrorSettings(
            whenUnlocked: values[Keys.whenUnlocked], withoutLockSource: values[Keys.withoutLockSource], showPreviews: values[Keys.showPreviews],
            offlineAlertWindowSeconds: values[Keys.offlineAlertWindowSeconds], onlyWearableAlerts: values[Keys.onlyWearableAlerts])
    }
}
