import ArgumentParser
import Foundation
import Glibc
import PhoneAgent
import RelayCLI
import RelayConfig
import RelayControl
import RelayDBus
import RelayStore
import RelayLinkRuntime
import RelayTransport

/// What relay-phone runs with: phone.toml with the flags over it, every default filled in
/// and every path absolute.
struct PhoneSettings {
    /// How to reach the wearable.
    var transport: TransportKind
    /// The bus as written (`session`, `system` or an address), for the ready line.
    var busName: String
    /// The bus to serve the notification server on.
    var bus: DBusConnection.Bus
    /// The system bus as written, for messages.
    var systemBusName: String
    /// The system bus, for logind.
    var systemBus: DBusConnection.Bus
    /// The control socket's path.
    var controlSocket: String
    /// Who may use the control socket.
    var controlAccess: ControlAccess
    /// Keys and database.
    var stateDirectory: StateDirectory
    /// The link to the wearable: where, the name, heartbeats and reconnection.
    var link: PhoneLink.Configuration
    /// What the wearable gets.
    var mirror: MirrorSettings
    /// What the phone counts as while no lock source knows anything.
    var withoutLockSource: LockState.WithoutSource
    /// Which file the settings came from, for the log.
    var source: String
    /// The Bluetooth adapter with the rfcomm transport, or `nil` for the first.
    var bluetoothAdapter: String? = nil
    /// The wearable's Bluetooth address, or `nil` for the one bonded device offering Relay's service.
    var wearableAddress: String? = nil
    /// The filter rules file (it may not exist: no rules).
    var filterRulesFile = ""
    /// Whether the monitored desktop's server is kept quiet while the wearable is connected.
    var onlyWearableAlerts = false

    /// Reads the configuration with the flags over it; a problem is written on standard error
    /// with its file, line and column (or flag) and stops the agent with exit status 1.
    static func load(agent: AgentOptions, phone: PhoneOptions, environment: [String: String]) throws(ExitCode) -> PhoneSettings {
        let loaded = try agent.loadConfiguration(
            PhoneConfiguration.self, flags: phone.flags(agent: agent), executable: "relay-phone", environment: environment)
        let file = loaded.settings
        let endpoint = try peer(loaded, environment: environment)
        let link = file.link
        return PhoneSettings(
            transport: file.transport,
            busName: file.bus,
            bus: file.bus == "session" ? .session : file.bus == "system" ? .system : .address(file.bus),
            systemBusName: file.systemBus,
            systemBus: file.systemBus == "system" ? .system : .address(file.systemBus),
            controlSocket: file.controlSocket ?? ControlSocketPath.defaultPath(role: "phone", environment: environment, uid: getuid()),
            controlAccess: ControlAccess(
                ownerUID: geteuid(), group: try ControlGroupLookup.resolve(file.controlGroup, values: loaded.values, executable: "relay-phone")),
            stateDirectory: file.stateDirectory.map { StateDirectory(path: $0) }
                ?? StateDirectory.resolve(role: "phone", environment: environment),
            link: PhoneLink.Configuration(
                endpoint: endpoint, deviceName: file.deviceName ?? ProcessInfo.processInfo.hostName,
                heartbeat: .seconds(link.heartbeatSeconds), timeout: .seconds(link.timeoutSeconds),
                reconnectMinimum: .seconds(link.reconnectMinSeconds), reconnectMaximum: .seconds(link.reconnectMaxSeconds),
                // Over Bluetooth the kernel reports a lost link; an idle session need not ping often.
                idleHeartbeat: file.transport == .loopback ? nil : LinkTimeouts.supervisedIdleHeartbeat.phone),
            mirror: MirrorSettings(
                whenUnlocked: file.mirror.whenUnlocked == .silent ? .silent : .none,
                // "when_unlocked" shows text: the wearable alerts only while the phone is locked,
                // so hiding by the phone's lock state would hide every alert's text (Docs/CONFIGURATION.md).
                hidePreviews: file.mirror.showPreviews == .never,
                language: file.language ?? EnvironmentLanguage.tag(in: environment), cannedReplies: file.cannedReplies),
            withoutLockSource: file.mirror.withoutLockSource == .unlocked ? .unlocked : .headless,
            source: loaded.summary, bluetoothAdapter: file.bluetoothAdapter, wearableAddress: file.wearableAddress,
            filterRulesFile: file.filterRulesFile
                ?? (loaded.location.path as NSString).deletingLastPathComponent + "/filters.toml",
            onlyWearableAlerts: file.mirror.onlyWearableAlerts)
    }

    /// The wearable's endpoint: the configured one, checked now so that a mistake stops the
    /// agent naming where it was written, else the socket relay-wearable listens on by default.
    private static func peer(_ loaded: LoadedConfiguration<PhoneConfiguration>, environment: [String: String]) throws(ExitCode)
        -> TransportEndpoint
    {
        guard let written = loaded.settings.peer else {
            return .unix(path: ControlSocketPath.runtimeDirectory(environment: environment, uid: getuid()) + "/wearable-link.sock")
        }
        let origin = loaded.values.origin(of: PhoneConfiguration.Keys.peer.path)
        let endpoint: TransportEndpoint
        do {
            endpoint = try TransportEndpoint(parsing: written)
        } catch {
            throw ConfigurationRefusal.refuse("\(origin): peer is \"\(written)\": \(error)", executable: "relay-phone")
        }
        if case .rfcomm = endpoint, loaded.settings.transport == .loopback {
            throw ConfigurationRefusal.refuse(
                "\(origin): peer is \"\(written)\", a Bluetooth address, but the transport is loopback; "
                    + "give unix:PATH or tcp:HOST:PORT", executable: "relay-phone")
        }
        return endpoint
    }
}
