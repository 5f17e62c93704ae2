import ArgumentParser
import Foundation
import Glibc
import RelayCLI
import RelayConfig
import RelayControl
import RelayCore
import RelayDisplay
import RelayHaptics
import RelayInput
import RelayStore
import RelayTransport
import WearableUI

/// relay-wearable's flags. Each stands for a key of wearable.toml and has no default of its
/// own: a flag left out is `nil` (or empty), so the file's value (else the key's default) stands.
struct WearableOptions: ParsableArguments {
    @Option(name: .customLong("control-socket"), help: "Control socket; default: wearable.sock in $RUNTIME_DIRECTORY (a systemd service's), else $XDG_RUNTIME_DIR/relay, else /tmp/relay-$UID/wearable.sock.")
    var controlSocket: String?

    @Option(help: "Framebuffer: a device (/dev/fb1) or a file, created if missing; default: --panel's device, else (loopback only) wearable.fb beside the control socket's default.")
    var framebuffer: String?

    @Option(help: "The panel by its framebuffer driver's name (cat /sys/class/graphics/fb*/name): fb_st7789v, panel-mipi-dbid.")
    var panel: String?

    @Option(help: "Width in pixels of a file framebuffer (a device reports its own); default: 240.")
    var width: Int?

    @Option(help: "Height in pixels of a file framebuffer; default: 240.")
    var height: Int?

    @Option(help: "Pixel format of a file framebuffer; default: rgb565.")
    var format: FramebufferFormat?

    @Option(name: .customLong("input"), help: "An evdev device to read keys from (/dev/input/event0); repeatable; replaces the file's inputs.")
    var inputs: [String] = []

    @Option(name: .customLong("minimum-alert-gap"), help: "The least seconds between two vibrations (0: none); replaces haptics.minimum_gap_seconds.")
    var minimumAlertGap: Int?

    @Option(name: .customLong("thread-burst"), help: "The least seconds between two alerts of one thread (0: none); replaces haptics.thread_burst_seconds.")
    var threadBurst: Int?

    @Option(help: "Where the phone connects in loopback mode: a Unix socket's path, or unix:PATH; default: wearable-link.sock beside the control socket.")
    var listen: String?

    @Option(name: .customLong("state-directory"), help: "Keys and database; default: $STATE_DIRECTORY, else $XDG_STATE_HOME/relay/wearable (~/.local/state/relay/wearable).")
    var stateDirectory: String?

    @Option(name: .customLong("device-name"), help: "The name the phone shows for this wearable; default: the host name.")
    var deviceName: String?

    @Option(name: .customLong("time-zone"), help: "Time zone of the watch face (IANA name); default: the system's.")
    var timeZone: String?

    @Option(help: "The language of the screens' words, direction and plural rules (en, he, ar); default: from LC_ALL, LC_MESSAGES or LANG.")
    var language: String?

    @Option(help: "The Bluetooth adapter with --transport rfcomm: hci0 or its address; default: the first.")
    var adapter: String?

    /// The flags given, for the configuration to put over the file.
    func flags(agent: AgentOptions) -> ConfigurationFlags {
        typealias Keys = RelayConfig.WearableConfiguration.Keys
        var flags = ConfigurationFlags()
        flags.set(Keys.transport, agent.transport)
        flags.set(Keys.listen, AgentOptions.endpoint(flag: listen))
        flags.set(Keys.controlSocket, controlSocket)
        flags.set(Keys.controlGroup, agent.controlGroup)
        flags.set(Keys.stateDirectory, stateDirectory)
        flags.set(Keys.deviceName, deviceName)
        flags.set(Keys.framebuffer, framebuffer)
        flags.set(Keys.panel, panel)
        flags.set(Keys.width, width)
        flags.set(Keys.height, height)
        flags.set(Keys.format, format)
        flags.set(Keys.inputs, inputs.isEmpty ? nil : inputs)
        flags.set(Keys.minimumAlertGap, minimumAlertGap)
        flags.set(Keys.threadBurst, threadBurst)
        flags.set(Keys.timeZone, timeZone)
        flags.set(Keys.language, language)
        flags.set(Keys.bluetoothAdapter, adapter)
        return flags
    }

    /// Reads wearable.toml with the flags over it, fills in the defaults and makes paths
    /// absolute. A problem is written on standard error with its file, line and column (or
    /// flag) and stops the agent with exit status 1, before the screen or a socket is opened.
    func resolve(agent: AgentOptions, environment: [String: String]) throws(ExitCode) -> (TransportKind, WearableConfiguration, source: String) {
        let loaded = try agent.loadConfiguration(
            RelayConfig.WearableConfiguration.self, flags: flags(agent: agent), executable: "relay-wearable", environment: environment)
        let file = loaded.settings
        let directory = ControlSocketPath.runtimeDirectory(environment: environment, uid: getuid())
        let control = file.controlSocket ?? ControlSocketPath.defaultPath(role: "wearable", environment: environment, uid: getuid())
        let interface = UIConfiguration(
            // The schema checked the name against the system's zones; the fallback is for a
            // zone removed between that check and this line.
            timeZone: file.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current,
            language: file.language ?? EnvironmentLanguage.tag(in: environment),
            shortLookDuration: TimeInterval(file.display.shortLookSeconds),
            twentyFourHourClock: file.display.twentyFourHourClock,
            // Only a panel blanks; the runtime clears this for a file framebuffer.
            blankAfter: file.display.blankAfterSeconds == 0 ? nil : TimeInterval(file.display.blankAfterSeconds))
        let configuration = WearableConfiguration(
            controlSocket: control,
            controlAccess: ControlAccess(
                ownerUID: geteuid(), group: try ControlGroupLookup.resolve(file.controlGroup, values: loaded.values, executable: "relay-wearable")),
            framebuffer: try Self.framebuffer(file, transport: file.transport, defaultFile: directory + "/wearable.fb") ?? "",
            panelDriver: file.framebuffer == nil ? file.panel : nil,
            runtimeDirectory: directory,
            geometry: FramebufferGeometry(
                width: file.width, height: file.height, format: file.format == .xrgb8888 ? .xrgb8888 : .rgb565),
            inputs: file.inputs.map(InputDeviceLocator.path) + file.inputNames.map(InputDeviceLocator.name),
            findsKeypads: file.inputs.isEmpty && file.inputNames.isEmpty && file.transport == .rfcomm,
            keyMap: KeyMap(up: file.keys.up, down: file.keys.down, select: file.keys.select, back: file.keys.back),
            interface: interface,
            colorEmoji: file.display.colorEmoji,
            // Beside the control socket by default: one folder per wearable, already private.
            linkSocket: try Self.linkSocket(loaded, besideControlSocket: control),
            stateDirectory: file.stateDirectory.map { StateDirectory(path: $0) }
                ?? StateDirectory.resolve(role: "wearable", environment: environment),
            deviceName: file.deviceName ?? ProcessInfo.processInfo.hostName,
            heartbeat: .seconds(file.link.heartbeatSeconds),
            timeout: .seconds(file.link.timeoutSeconds),
            offlineAlertWindow: TimeInterval(file.offlineAlertWindowSeconds),
            alertPolicy: AlertPolicy(
                quietHours: file.quietHours.map { QuietHours(start: $0.start, end: $0.end, weekdays: $0.weekdays, timeZone: interface.timeZone) },
                minimumGap: TimeInterval(file.minimumAlertGapSeconds), threadBurst: TimeInterval(file.threadBurstSeconds)),
            bluetoothAdapter: file.bluetoothAdapter,
            bluetoothChannel: UInt16(file.bluetoothChannel),
            vibrator: file.vibrator.map { VibratorDevice(path: $0, line: file.vibratorLine) },
            setSystemClock: file.setSystemClock,
            sharesDoNotDisturb: file.sharesDoNotDisturb)
        return (file.transport, configuration, loaded.summary)
    }

    /// The framebuffer to open: `framebuffer` when set, else (loopback only, and only without
    /// `panel`, whose device is looked for once the agent runs) the default file. A wearable that
    /// talks Bluetooth has a panel, and drawing into a file nobody sees would hide that none was
    /// configured.
    private static func framebuffer(
        _ file: RelayConfig.WearableConfiguration, transport: TransportKind, defaultFile: String
    ) throws(ExitCode) -> String? {
        if let path = file.framebuffer { return path }
        guard file.panel == nil else { return nil }
        guard transport == .rfcomm else { return defaultFile }
        throw ConfigurationRefusal.refuse(
            "relay-wearable needs its panel with transport = \"rfcomm\": set panel = \"DRIVER\" (or framebuffer = \"/dev/fbN\") "
                + "in wearable.toml; the framebuffers here: \(FramebufferDevices().listing)", executable: "relay-wearable")
    }

    /// The Unix socket to listen on: the runtime serves its link on a socket path, so an
    /// endpoint of another kind stops the agent naming where it was written.
    private static func linkSocket(_ loaded: LoadedConfiguration<RelayConfig.WearableConfiguration>, besideControlSocket control: String)
        throws(ExitCode) -> String
    {
        guard let written = loaded.settings.listen else {
            return (control as NSString).deletingLastPathComponent + "/wearable-link.sock"
        }
        let origin = loaded.values.origin(of: RelayConfig.WearableConfiguration.Keys.listen.path)
        let endpoint: TransportEndpoint
        do {
            endpoint = try TransportEndpoint(parsing: written)
        } catch {
            throw ConfigurationRefusal.refuse("\(origin): listen is \"\(written)\": \(error)", executable: "relay-wearable")
        }
        guard case .unix(let path) = endpoint else {
            throw ConfigurationRefusal.refuse(
                "\(origin): listen is \"\(written)\", but relay-wearable listens on a Unix socket in this build; "
                    + "give unix:PATH or a path", executable: "relay-wearable")
        }
        return path
    }
}

/// What the runtime needs, resolved from the configuration and the flags.
struct WearableConfiguration {
    /// The control socket's path.
    var controlSocket: String
    /// Who may use the control socket.
    var controlAccess: ControlAccess
    /// The framebuffer device or file; empty until ``panelDriver``'s device is found.
    var framebuffer: String
    /// The driver whose framebuffer is the panel, looked for when the agent starts (`panel`).
    var panelDriver: String?
    /// The default directory for the socket and the framebuffer file.
    var runtimeDirectory: String
    /// The geometry of a file framebuffer.
    var geometry: FramebufferGeometry
    /// evdev devices to read, by path or by name.
    var inputs: [InputDeviceLocator]
    /// Whether, with none named, the devices are found by what they report: a board's buttons.
    var findsKeypads: Bool
    /// Which key codes are which of the four keys.
    var keyMap: KeyMap
    /// The screens' settings: time zone, language, short look, clock, blanking.
    var interface: UIConfiguration
    /// Emoji in colour (`display.color_emoji`), else in the text's colour.
    var colorEmoji = true
    /// The Unix socket the phone connects to in loopback mode.
    var linkSocket: String
    /// Keys and database.
    var stateDirectory: StateDirectory
    /// The name the phone shows.
    var deviceName: String
    /// Heartbeat interval on the link.
    var heartbeat: Duration
    /// Silence after which the link counts as lost.
    var timeout: Duration
    /// How young a notification that waited while apart must be to alert on arrival.
    var offlineAlertWindow: TimeInterval
    /// Quiet hours and the gap between vibrations (Docs/POLICY.md).
    var alertPolicy: AlertPolicy
    /// The Bluetooth adapter with the rfcomm transport, or `nil` for the first.
    var bluetoothAdapter: String?
    /// The RFCOMM channel of Relay's service.
    var bluetoothChannel: UInt16
    /// The vibration motor; `nil`: none (vibrations are logged).
    var vibrator: VibratorDevice?
    /// Whether the phone's clock sets the system clock (else an offset is kept).
    var setSystemClock: Bool
    /// Whether the manual do not disturb is shared with the phone.
    var sharesDoNotDisturb = true
}
