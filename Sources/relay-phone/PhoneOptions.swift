public import ArgumentParser
import Foundation
import Glibc
import RelayControl
import PhoneAgent
import RelayDBus
import RelayStore

/// The options of the phone's notification server and control socket.
struct PhoneOptions: ParsableArguments {
    @Option(help: "The bus to serve org.freedesktop.Notifications on: session, system, or a D-Bus address (unix:path=…).")
    var bus: String = "session"

    @Option(name: .customLong("system-bus"), help: "The system bus, for logind's lock state: system, or a D-Bus address (unix:path=…).")
    var systemBus: String = "system"

    @Option(name: .customLong("control-socket"), help: "Control socket; default: $XDG_RUNTIME_DIR/relay/phone.sock, else /tmp/relay-$UID/phone.sock.")
    var controlSocket: String?

    @Option(help: "The wearable's link socket in loopback mode; default: wearable-link.sock in $XDG_RUNTIME_DIR/relay (else /tmp/relay-$UID), where relay-wearable listens by default.")
    var peer: String?

    @Option(name: .customLong("state-dir"), help: "Keys and database; default: $STATE_DIRECTORY, else $XDG_STATE_HOME/relay/phone (~/.local/state/relay/phone).")
    var stateDirectory: String?

    @Option(name: .customLong("device-name"), help: "The name the wearable shows for this phone; default: the host name.")
    var deviceName: String?

    @Option(name: .customLong("when-unlocked"), help: "While the phone is unlocked: none (notifications stay on the phone) or silent (synced without alerting).")
    var whenUnlocked: MirrorSettings.WhenUnlocked = .none

    /// The wearable's link socket, absolute.
    func resolvedPeer(environment: [String: String]) -> String {
        let path = peer ?? ControlSocketPath.runtimeDirectory(environment: environment, uid: getuid()) + "/wearable-link.sock"
        return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The state directory.
    func resolvedStateDirectory(environment: [String: String]) -> StateDirectory {
        guard let stateDirectory else { return StateDirectory.resolve(role: "phone", environment: environment) }
        return StateDirectory(path: stateDirectory.hasPrefix("/") ? stateDirectory : FileManager.default.currentDirectoryPath + "/" + stateDirectory)
    }

    /// The bus to connect to.
    var resolvedBus: DBusConnection.Bus {
        switch bus {
        case "session": .session
        case "system": .system
        default: .address(bus)
        }
    }

    /// The system bus to connect to for logind.
    var resolvedSystemBus: DBusConnection.Bus {
        systemBus == "system" ? .system : .address(systemBus)
    }

    /// The control socket's path, absolute.
    func resolvedControlSocket(environment: [String: String], currentDirectory: String) -> String {
        let path = controlSocket ?? ControlSocketPath.defaultPath(role: "phone", environment: environment, uid: getuid())
        return path.hasPrefix("/") ? path : currentDirectory + "/" + path
    }
}

extension MirrorSettings.WhenUnlocked: ExpressibleByArgument {}
