import RelaySystem

/// The wearable agent's settings (`relay-wearable`, `wearable.toml`). Empty strings in the
/// file mean "the agent's default" and arrive here as `nil`.
public struct WearableConfiguration: AgentConfiguration, Hashable {
    /// How the phone reaches this wearable.
    public var transport: TransportKind
    /// Where to listen for the phone (`unix:PATH`, `tcp:HOST:PORT`), or `nil` for the default.
    public var listen: String?
    /// The control socket's path, or `nil` for the default.
    public var controlSocket: String?
    /// The group whose members may use the control socket too, or `nil` for none.
    public var controlGroup: String?
    /// The state directory, or `nil` for the default.
    public var stateDirectory: String?
    /// The name shown when pairing, or `nil` for the host name.
    public var deviceName: String?
    /// The framebuffer device or file, or `nil` for the default (``panel``'s device, or with the
    /// loopback transport a file).
    public var framebuffer: String?
    /// The panel's framebuffer by its driver's name, or `nil`.
    public var panel: String?
    /// Width in pixels of a file framebuffer.
    public var width: Int
    /// Height in pixels of a file framebuffer.
    public var height: Int
    /// Pixel format of a file framebuffer.
    public var format: FramebufferFormat
    /// evdev devices to read keys from, by path.
    public var inputs: [String]
    /// evdev devices to read keys from, by their drivers' names for them.
    public var inputNames: [String]
    /// The watch face's IANA time zone, or `nil` for the system's.
    public var timeZone: String?
    /// The language tag of the screens' words, direction and plural rules, or `nil` for the environment's.
    public var language: String?
    /// Heartbeats and reconnection.
    public var link: LinkSettings
    /// The screen's timing and clock.
    public var display: DisplaySettings
    /// Which key codes are the wearable's four keys.
    public var keys: KeySettings
    /// The vibration motor (a force-feedback input device, a GPIO chip with `vibratorLine`, or a
    /// sysfs value file), or `nil` when there is none (vibrations are logged).
    public var vibrator: String?
    /// The line of the GPIO chip `vibrator` names that switches the motor; `nil`: the vibrator
    /// is not a GPIO chip.
    public var vibratorLine: UInt32?
    /// The Bluetooth adapter (`hci0` or its address), or `nil` for the first.
    public var bluetoothAdapter: String?
    /// The RFCOMM channel BlueZ listens on for Relay's service.
    public var bluetoothChannel: Int
    /// Notifications that waited on the phone while the devices were apart still alert when at
    /// most this many seconds old on arrival; 0: none of them alerts.
    public var offlineAlertWindowSeconds: Int
    /// Whether the wearable sets the system clock to the phone's (else it keeps an offset).
    public var setSystemClock: Bool
    /// The least seconds between two vibrations (0: none).
    public var minimumAlertGapSeconds: Int
    /// The least seconds between two alerts of one thread (0: none).
    public var threadBurstSeconds: Int
    /// The daily quiet hours, or `nil` when there are none.
    public var quietHours: QuietHoursSettings?
    /// Whether the manual do not disturb is shared with the phone.
    public var sharesDoNotDisturb: Bool

    /// The `[quiet_hours]` section: do not disturb by itself each day (Docs/POLICY.md).
    public struct QuietHoursSettings: Sendable, Hashable {
        /// Minutes after midnight when it starts.
        public var start: Int
        /// Minutes after midnight when it ends (the next day when not after `start`).
        public var end: Int
        /// The days a period starts on, as `Calendar` numbers them (1 Sunday … 7 Saturday).
        public var weekdays: Set<Int>

        /// Quiet hours from `start` to `end` on `weekdays`.
        public init(start: Int, end: Int, weekdays: Set<Int>) {
            self.start = start
            self.end = end
            self.weekdays = weekdays
        }
    }

    /// The `[keys]` section: the Linux key codes of each of the wearable's keys.
    public struct KeySettings: Sendable, Hashable {
        /// Up: scroll up, previous item.
        public var up: [UInt16]
        /// Down: scroll down, next item.
        public var down: [UInt16]
        /// Select: open, choose, confirm.
        public var select: [UInt16]
        /// Back.
        public var back: [UInt16]
    }

    /// The `[display]` section.
    public struct DisplaySettings: Sendable, Hashable {
        /// Seconds a short look stays before the screen returns to what it showed.
        public var shortLookSeconds: Int
        /// Seconds without a key press or alert before the panel is blanked; 0 never blanks.
        public var blankAfterSeconds: Int
        /// A 24-hour clock ("21:41") rather than a 12-hour one ("9:41 PM").
        public var twentyFourHourClock: Bool
        /// Emoji in colour (Noto Color Emoji); false draws them in the text's colour, for a
        /// monochrome panel.
        public var colorEmoji: Bool
    }

    /// The file's keys.
    public enum Keys {
        /// `transport`.
        public static let transport: ConfigKey<TransportKind> = .choice(
            "transport", default: .rfcomm, flag: "--transport",
            "How the phone reaches this wearable: \"rfcomm\" (Bluetooth) or \"loopback\" (both agents on one machine).")
        /// `listen`.
        public static let listen: ConfigKey<String> = .string(
            "listen", .endpoint, flag: "--listen",
            "Where to listen for the phone in loopback: a Unix socket (this build does not listen on tcp: yet); on the "
                + "command line a plain path is a Unix socket. Empty: wearable-link.sock beside the control socket.")
        /// `control_socket`.
        public static let controlSocket: ConfigKey<String> = .string(
            "control_socket", .path, flag: "--control-socket",
            "The control socket relayctl talks to. Empty: wearable.sock in $RUNTIME_DIRECTORY (a systemd service's), else $XDG_RUNTIME_DIR/relay, else /tmp/relay-$UID/wearable.sock.")
        /// `control_group`.
        public static let controlGroup = ControlSocketKeys.controlGroup
        /// `state_directory`.
        public static let stateDirectory: ConfigKey<String> = .string(
            "state_directory", .path, flag: "--state-directory",
            "Where keys and the database live. Empty: $STATE_DIRECTORY (systemd), else $XDG_STATE_HOME/relay/wearable, "
                + "else ~/.local/state/relay/wearable.")
        /// `device_name`.
        public static let deviceName: ConfigKey<String> = .string(
            "device_name", .text(maximumLength: 64), flag: "--device-name",
            "The name the phone shows for this wearable when pairing. Empty: the host name.")
        /// `framebuffer`.
        public static let framebuffer: ConfigKey<String> = .string(
            "framebuffer", .path, flag: "--framebuffer",
            "The framebuffer: a device such as /dev/fb1, or a file (loopback), created if missing. Empty: the device of "
                + "panel; with transport = \"loopback\" and no panel, wearable.fb beside the default control socket.")
        /// `panel`.
        public static let panel: ConfigKey<String> = .string(
            "panel", .text(maximumLength: 64), flag: "--panel",
            "The panel by its framebuffer driver's name, as /sys/class/graphics/fb*/name shows it (fb_st7789v, "
                + "panel-mipi-dbid, fb_ili9341): its device is used whatever number the kernel gave it. framebuffer, "
                + "when set, wins. With transport = \"rfcomm\" one of the two must be set.")
        /// `width`.
        public static let width: ConfigKey<Int> = .integer(
            "width", default: 240, range: 1...4096, unit: "pixels", flag: "--width",
            "Width of a file framebuffer; a device reports its own.")
        /// `height`.
        public static let height: ConfigKey<Int> = .integer(
            "height", default: 240, range: 1...4096, unit: "pixels", flag: "--height",
            "Height of a file framebuffer; a device reports its own.")
        /// `format`.
        public static let format: ConfigKey<FramebufferFormat> = .choice(
            "format", default: .rgb565, flag: "--format", "Pixel format of a file framebuffer; a device reports its own.")
        /// `inputs`.
        public static let inputs: ConfigKey<[String]> = .paths(
            "inputs", flag: "--input",
            "evdev devices to read keys from, such as [\"/dev/input/by-path/platform-keys-event\"]. The flag is repeated once "
                + "per device. With neither inputs nor input_names, the Bluetooth wearable takes every device that reports keys "
                + "of [keys] and is not a keyboard (a board's buttons); the loopback one takes none.")
        /// `input_names`.
        public static let inputNames: ConfigKey<[String]> = .names(
            "input_names",
            "Key devices by the name their driver gives them (N: Name= in /proc/bus/input/devices), such as [\"relay-keys\"], "
                + "wherever the kernel puts them; one not there yet is waited for.")
        /// `time_zone`.
        public static let timeZone: ConfigKey<String> = .string(
            "time_zone", .timeZone, flag: "--time-zone", "The watch face's time zone. Empty: the system's.")
        /// `language`.
        public static let language: ConfigKey<String> = .string(
            "language", .languageTag, flag: "--language",
            "The language of the screens: their words (English, Hebrew, Arabic; English for others), mirrored "
                + "for one written right to left, and plural rules. Empty: from LC_ALL, LC_MESSAGES or LANG.")
        /// `display.short_look_seconds`.
        public static let shortLookSeconds: ConfigKey<Int> = .integer(
            "display.short_look_seconds", default: 8, range: 1...60, unit: "seconds",
            "How long an alert's short look stays before the screen returns to what it showed.")
        /// `display.blank_after_seconds`.
        public static let blankAfterSeconds: ConfigKey<Int> = .integer(
            "display.blank_after_seconds", default: 15, range: 0...3600, unit: "seconds",
            "Seconds without a key press or alert before the panel is blanked (powered down); the next key press "
                + "only wakes it, and an alert or a pairing code wakes it too. 0: never. A file framebuffer (loopback) "
                + "has no panel and never blanks.")
        /// `display.twenty_four_hour_clock`.
        public static let twentyFourHourClock: ConfigKey<Bool> = .boolean(
            "display.twenty_four_hour_clock", default: true, "A 24-hour clock (21:41) rather than a 12-hour one (9:41 PM).")
        /// `display.color_emoji`.
        public static let colorEmoji: ConfigKey<Bool> = .boolean(
            "display.color_emoji", default: true,
            "Emoji in colour, flags and families as one picture (Noto Color Emoji, fonts-noto-color-emoji). false for a "
                + "monochrome panel: emoji are drawn in the text's colour from fonts-symbola, and a sequence it cannot join "
                + "(a family, a flag) as one box.")
        /// `offline.alert_window_seconds`.
        public static let offlineAlertWindowSeconds: ConfigKey<Int> = .integer(
            "offline.alert_window_seconds", default: 0, range: 0...86_400, unit: "seconds",
            "Notifications posted on the phone while the devices were apart arrive on reconnect without alerting; "
                + "those at most this old still alert (120 keeps the alerts of a short drop-out). 0: none alerts. "
                + "Ages are by the wearable's clock; one more than 5 minutes behind the phone's (a board with no "
                + "real-time clock, before NTP) cannot tell them, and those arrive without alerting too.")
        /// `keys.up`.
        public static let keyUp: ConfigKey<[UInt16]> = .keyCodes(
            "keys.up", default: [103], "The key codes of Up (scroll up, previous item), by name or number.")
        /// `keys.down`.
        public static let keyDown: ConfigKey<[UInt16]> = .keyCodes(
            "keys.down", default: [108], "The key codes of Down (scroll down, next item).")
        /// `keys.select`.
        public static let keySelect: ConfigKey<[UInt16]> = .keyCodes(
            "keys.select", default: [28, 96, 353], "The key codes of Select (open, choose, confirm).")
        /// `keys.back`.
        public static let keyBack: ConfigKey<[UInt16]> = .keyCodes(
            "keys.back", default: [1, 14, 158], "The key codes of Back.")
        /// `clock.set_system_clock`.
        public static let setSystemClock: ConfigKey<Bool> = .boolean(
            "clock.set_system_clock", default: false,
            "When the phone's clock (sent as each link comes up) differs from this one by more than 2 s: true sets the "
                + "system clock to the phone's (it needs the CAP_SYS_TIME capability, which the packaged service does not "
                + "have: Docs/SERVICES.md); false keeps the difference as an offset that the watch face, list times and "
                + "local firing use, leaving the system clock alone.")
        /// `bluetooth.adapter`.
        public static let bluetoothAdapter: ConfigKey<String> = .string(
            "bluetooth.adapter", .text(maximumLength: 32), flag: "--adapter",
            "The Bluetooth adapter with the rfcomm transport: its name (hci0) or address. Empty: the first one bluetoothd reports.")
        /// `bluetooth.channel`.
        public static let bluetoothChannel: ConfigKey<Int> = .integer(
            "bluetooth.channel", default: 22, range: 1...30,
            "The RFCOMM channel BlueZ listens on for Relay's service; the phone finds it in the service record.")
        /// `haptics.vibrator`.
        public static let vibrator: ConfigKey<String> = .string(
            "haptics.vibrator", .path,
            "The vibration motor: a force-feedback input device (/dev/input/by-path/...-event, which the kernel's "
                + "gpio-vibrator or pwm-vibrator driver makes of a coin motor), or a sysfs value file (/sys/class/leds/NAME/brightness "
                + "for a motor declared with gpio-leds), or a GPIO chip (/dev/gpiochip0) whose line haptics.vibrator_line switches "
                + "the motor through a transistor. Empty: no motor; each vibration is logged at debug level. relayctl vibrate tries it.")
        /// `haptics.minimum_gap_seconds`.
        public static let minimumAlertGap: ConfigKey<Int> = .integer(
            "haptics.minimum_gap_seconds", default: 3, range: 0...60, unit: "seconds", flag: "--minimum-alert-gap",
            "The least time between two vibrations: a notification sooner than that after the last alert arrives silently, "
                + "so that a burst buzzes once (Docs/POLICY.md). 0: no gap.")
        /// `haptics.thread_burst_seconds`.
        public static let threadBurst: ConfigKey<Int> = .integer(
            "haptics.thread_burst_seconds", default: 30, range: 0...600, unit: "seconds", flag: "--thread-burst",
            "The least time between two alerts of one thread (a conversation): the rest of a burst arrives silently and the "
                + "short look on screen counts it (\"and 2 more\"; Docs/POLICY.md). 0: each may alert, as the gap allows.")
        /// `quiet_hours.start`.
        public static let quietStart: ConfigKey<String> = .string(
            "quiet_hours.start", .timeOfDay,
            "When the daily quiet hours start (\"22:00\"), in the watch face's time zone: do not disturb by itself until "
                + "quiet_hours.end; time-sensitive and critical notifications still alert. Empty: no quiet hours.")
        /// `quiet_hours.end`.
        public static let quietEnd: ConfigKey<String> = .string(
            "quiet_hours.end", .timeOfDay,
            "When they end (\"07:00\"; before the start: the next morning; equal to the start: the whole of each day "
                + "listed). Set with quiet_hours.start, or both empty.")
        /// `quiet_hours.weekdays`.
        public static let quietWeekdays: ConfigKey<[String]> = .weekdays(
            "quiet_hours.weekdays", default: ConfigRule.weekdayNames,
            "The days the quiet hours start on; a night that crosses midnight belongs to the day it starts on.")
        /// `do_not_disturb.shared`.
        public static let sharesDoNotDisturb: ConfigKey<Bool> = .boolean(
            "do_not_disturb.shared", default: true,
            "Whether do not disturb turned on by hand is one for both devices: the wearable's toggle (Up on the watch face) "
                + "and relayctl dnd on either side turn it on and off on both, the newest change winning (Docs/POLICY.md). "
                + "false: the wearable's toggle is its own and stays on the wearable, and the phone's is not taken as the wearable's "
                + "(the phone still asks no alert of what it mirrors while its own is on). Mutes are always shared.")
        /// `haptics.vibrator_line`.
        public static let vibratorLine: ConfigKey<Int> = .integer(
            "haptics.vibrator_line", default: -1, range: -1...4095,
            "With a GPIO chip as the vibrator: the line that switches the motor, by its offset on the chip (gpioinfo lists "
                + "them; on a Raspberry Pi's first chip the offset is the BCM GPIO number). -1: the vibrator is not a GPIO chip.")    }

    /// Every key of `wearable.toml`.
    public static let schema = ConfigSchema(
        role: "wearable", title: "the wearable agent (relay-wearable)",
        sections: [
            ConfigSection(
                "", "The wearable agent.",
                keys: [
                    Keys.transport.erased, Keys.listen.erased, Keys.controlSocket.erased, Keys.controlGroup.erased, Keys.stateDirectory.erased,
                    Keys.deviceName.erased, Keys.framebuffer.erased, Keys.panel.erased, Keys.width.erased, Keys.height.erased,
                    Keys.format.erased, Keys.inputs.erased, Keys.inputNames.erased, Keys.timeZone.erased, Keys.language.erased,
                ]),
            LinkSettings.section(reconnects: false),
            ConfigSection(
                "display", "The screen's timing and clock.",
                keys: [Keys.shortLookSeconds.erased, Keys.blankAfterSeconds.erased, Keys.twentyFourHourClock.erased, Keys.colorEmoji.erased]),
            ConfigSection(
                "keys", "Which Linux key codes (cat /proc/bus/input/devices, evtest) are the wearable's four keys.",
                keys: [Keys.keyUp.erased, Keys.keyDown.erased, Keys.keySelect.erased, Keys.keyBack.erased]),
            ConfigSection("haptics", "The vibration motor.", keys: [Keys.vibrator.erased, Keys.vibratorLine.erased, Keys.minimumAlertGap.erased, Keys.threadBurst.erased]),
            ConfigSection("do_not_disturb", "Do not disturb turned on by hand (Docs/POLICY.md).", keys: [Keys.sharesDoNotDisturb.erased]),
            ConfigSection(
                "quiet_hours", "Do not disturb each day by itself, until the phone sets other quiet hours (relayctl quiet-hours; Docs/POLICY.md).",
                keys: [Keys.quietStart.erased, Keys.quietEnd.erased, Keys.quietWeekdays.erased]),
            ConfigSection(
                "bluetooth", "The Bluetooth transport (transport = \"rfcomm\"; Docs/BLUETOOTH.md).",
                keys: [Keys.bluetoothAdapter.erased, Keys.bluetoothChannel.erased]),
            ConfigSection(
                "offline", "While the phone is out of range: the wearable fires the phone's schedule itself.",
                keys: [Keys.offlineAlertWindowSeconds.erased]),
            ConfigSection("clock", "The wearable's clock, set by the phone's (Docs/PROTOCOL.md, \"The phone's clock\").", keys: [Keys.setSystemClock.erased]),
        ],
        checks: LinkSettings.checks + [keysCheck, vibratorLineCheck, quietHoursCheck])

    /// Quiet hours have a start and an end, or neither.
    static let quietHoursCheck = ConfigCheck(
        paths: [Keys.quietStart.path, Keys.quietEnd.path, Keys.quietWeekdays.path],
        summary: "`quiet_hours.start` and `quiet_hours.end` are both set or both empty, and set ones have a weekday"
    ) { values in
        let (start, end) = (values[Keys.quietStart], values[Keys.quietEnd])
        if !start.isEmpty, values[Keys.quietWeekdays].isEmpty {
            return "quiet_hours.weekdays is empty, so the quiet hours from \(start) never begin; list the days (\"mon\", …) or leave the key out"
        }
        guard start.isEmpty != end.isEmpty else { return nil }
        return start.isEmpty
            ? "quiet_hours.end = \"\(end)\" needs quiet_hours.start too"
            : "quiet_hours.start = \"\(start)\" needs quiet_hours.end too (\"07:00\", say)"
    }

    /// A GPIO chip as the vibrator needs its line, and a line needs its chip.
    static let vibratorLineCheck = ConfigCheck(
        paths: [Keys.vibratorLine.path, Keys.vibrator.path],
        summary: "`haptics.vibrator_line` is set when `haptics.vibrator` names a GPIO chip (/dev/gpiochipN), and only with a vibrator"
    ) { values in
        let vibrator = values[Keys.vibrator]
        let line = values[Keys.vibratorLine]
        if line >= 0, vibrator.isEmpty {
            return "haptics.vibrator_line = \(line) needs the GPIO chip that line is on in haptics.vibrator (gpiodetect lists them)"
        }
        if line < 0, vibrator.hasPrefix("/dev/gpiochip") {
            return "haptics.vibrator = \"\(vibrator)\" is a GPIO chip: say which of its lines switches the motor in haptics.vibrator_line (gpioinfo \(vibrator) lists them)"
        }
        return nil
    }

    /// Each key code means one key, and each key has a code.
    static let keysCheck = ConfigCheck(
        paths: [Keys.keyUp.path, Keys.keyDown.path, Keys.keySelect.path, Keys.keyBack.path],
        summary: "each of `keys.up`, `keys.down`, `keys.select` and `keys.back` has a key code, and no code is in two of them"
    ) { values in
        let roles = [("keys.up", values[Keys.keyUp]), ("keys.down", values[Keys.keyDown]), ("keys.select", values[Keys.keySelect]), ("keys.back", values[Keys.keyBack])]
        if let empty = roles.first(where: { $0.1.isEmpty }) {
            return "\(empty.0) has no key code; the wearable needs all four keys"
        }
        var seen: [UInt16: String] = [:]
        for (role, codes) in roles {
            for code in codes {
                if let other = seen[code], other != role {
                    return "\(LinuxKeyCodes.name(of: code)) is in both \(other) and \(role); a key can mean only one of them"
                }
                seen[code] = role
            }
        }
        return nil
    }

    /// The settings from checked values.
    public init(_ values: ConfigValues) {
        transport = values[Keys.transport]
        listen = values[Keys.listen].nonEmpty
        controlSocket = values[Keys.controlSocket].nonEmpty
        controlGroup = values[Keys.controlGroup].nonEmpty
        stateDirectory = values[Keys.stateDirectory].nonEmpty
        deviceName = values[Keys.deviceName].nonEmpty
        framebuffer = values[Keys.framebuffer].nonEmpty
        panel = values[Keys.panel].nonEmpty
        width = values[Keys.width]
        height = values[Keys.height]
        format = values[Keys.format]
        inputs = values[Keys.inputs]
        inputNames = values[Keys.inputNames]
        timeZone = values[Keys.timeZone].nonEmpty
        language = values[Keys.language].nonEmpty
        link = LinkSettings(values)
        display = DisplaySettings(
            shortLookSeconds: values[Keys.shortLookSeconds], blankAfterSeconds: values[Keys.blankAfterSeconds],
            twentyFourHourClock: values[Keys.twentyFourHourClock], colorEmoji: values[Keys.colorEmoji])
        vibrator = values[Keys.vibrator].nonEmpty
        vibratorLine = values[Keys.vibratorLine] >= 0 ? UInt32(values[Keys.vibratorLine]) : nil
        minimumAlertGapSeconds = values[Keys.minimumAlertGap]
        threadBurstSeconds = values[Keys.threadBurst]
        if let start = ConfigRule.minutes(ofTimeOfDay: values[Keys.quietStart]), let end = ConfigRule.minutes(ofTimeOfDay: values[Keys.quietEnd]) {
            quietHours = QuietHoursSettings(
                start: start, end: end,
                weekdays: Set(values[Keys.quietWeekdays].compactMap { ConfigRule.weekdayNames.firstIndex(of: $0).map { $0 + 1 } }))
        } else {
            quietHours = nil
        }
        bluetoothAdapter = values[Keys.bluetoothAdapter].nonEmpty
        bluetoothChannel = values[Keys.bluetoothChannel]
        offlineAlertWindowSeconds = values[Keys.offlineAlertWindowSeconds]
        setSystemClock = values[Keys.setSystemClock]
        sharesDoNotDisturb = values[Keys.sharesDoNotDisturb]
        keys = KeySettings(up: values[Keys.keyUp], down: values[Keys.keyDown], select: values[Keys.keySelect], back: values[Keys.keyBack])
    }
}
