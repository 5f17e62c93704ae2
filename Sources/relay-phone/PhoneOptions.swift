import ArgumentParser
import RelayCLI
import RelayConfig

/// relay-phone's flags. Each stands for a key of phone.toml and has no default of its own:
/// a flag left out is `nil`, so the file's value (else the key's default) stands.
struct PhoneOptions: ParsableArguments {
    @Option(help: "The bus to serve org.freedesktop.Notifications on: session, system, or a D-Bus address (unix:path=…); default: session.")
    var bus: String?

    @Option(name: .customLong("system-bus"), help: "The system bus, for logind's lock state: system, or a D-Bus address (unix:path=…); default: system.")
    var systemBus: String?

    @Option(name: .customLong("control-socket"), help: "Control socket; default: phone.sock in $RUNTIME_DIRECTORY (a systemd service's), else $XDG_RUNTIME_DIR/relay, else /tmp/relay-$UID/phone.sock.")
    var controlSocket: String?

    @Option(help: "Where the wearable listens: a Unix socket's path, or unix:PATH or tcp:HOST:PORT; default: wearable-link.sock in $RUNTIME_DIRECTORY, else $XDG_RUNTIME_DIR/relay, else /tmp/relay-$UID, where relay-wearable listens by default.")
    var peer: String?

    @Option(name: .customLong("state-directory"), help: "Keys and database; default: $STATE_DIRECTORY, else $XDG_STATE_HOME/relay/phone (~/.local/state/relay/phone).")
    var stateDirectory: String?

    @Option(name: .customLong("device-name"), help: "The name the wearable shows for this phone; default: the host name.")
    var deviceName: String?

    @Option(help: "The language of hidden-preview placeholders (en, pt-BR); default: from LC_ALL, LC_MESSAGES or LANG.")
    var language: String?

    @Option(name: .customLong("when-unlocked"), help: "Notifications arriving while the phone is unlocked: none (they stay on the phone) or silent (synced without alerting); default: none.")
    var whenUnlocked: UnlockedMirroring?

    @Option(name: .customLong("without-lock-source"), help: "What the phone counts as while it has no screen that locks (no graphical session on the seat, no screensaver): headless (locked: a board with no screen mirrors everything) or unlocked (--when-unlocked decides); default: headless.")
    var withoutLockSource: LockFallback?

    @Option(name: .customLong("show-previews"), help: "Whether the wearable shows notifications' text: always or never (placeholders); when_unlocked acts as always; default: always.")
    var showPreviews: PreviewVisibility?

    @Option(help: "The Bluetooth adapter with --transport rfcomm: hci0 or its address; default: the first.")
    var adapter: String?

    @Option(name: .customLong("wearable-address"), help: "The wearable's Bluetooth address with --transport rfcomm; default: the one bonded device offering Relay's service.")
    var wearableAddress: String?

    /// The flags given, for `PhoneConfiguration` to put over the file.
    func flags(agent: AgentOptions) -> ConfigurationFlags {
        typealias Keys = PhoneConfiguration.Keys
        var flags = ConfigurationFlags()
        flags.set(Keys.transport, agent.transport)
        flags.set(Keys.peer, AgentOptions.endpoint(flag: peer))
        flags.set(Keys.bus, bus)
        flags.set(Keys.systemBus, systemBus)
        flags.set(Keys.controlSocket, controlSocket)
        flags.set(Keys.controlGroup, agent.controlGroup)
        flags.set(Keys.stateDirectory, stateDirectory)
        flags.set(Keys.deviceName, deviceName)
        flags.set(Keys.language, language)
        flags.set(Keys.whenUnlocked, whenUnlocked)
        flags.set(Keys.withoutLockSource, withoutLockSource)
        flags.set(Keys.showPreviews, showPreviews)
        flags.set(Keys.bluetoothAdapter, adapter)
        flags.set(Keys.wearableAddress, wearableAddress)
        return flags
    }
}
