import ArgumentParser
import Foundation
import Glibc
import RelayControl
import RelayDBus

/// The options of the phone's notification server and control socket.
struct PhoneOptions: ParsableArguments {
    @Option(help: "The bus to serve org.freedesktop.Notifications on: session, system, or a D-Bus address (unix:path=…).")
    var bus: String = "session"

    @Option(name: .customLong("system-bus"), help: "The system bus, for logind's lock state: system, or a D-Bus address (unix:path=…).")
    var systemBus: String = "system"

    @Option(name: .customLong("control-socket"), help: "Control socket; default: $XDG_RUNTIME_DIR/relay/phone.sock, else /tmp/relay-$UID/phone.sock.")
    var controlSocket: String?

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
