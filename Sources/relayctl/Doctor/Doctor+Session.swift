import Foundation
import RelayControl
import RelayDBus

extension Doctor {
    /// The phone's side of D-Bus: a session bus, and who serves notifications on it.
    func session() async -> [DoctorFinding] {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: .session)
        } catch {
            return [
                .problem(
                    "dbus", "session bus", "no session bus here (\(error))",
                    fix: "log in to a session; on a board nobody logs in to: sudo loginctl enable-linger $USER (with dbus-user-session), then systemctl --user enable --now relay-phone")
            ]
        }
        defer { Task { await connection.close() } }
        var findings: [DoctorFinding] = [.ok("dbus", "session bus", connection.uniqueName.isEmpty ? "reachable" : "reachable (as \(connection.uniqueName))")]
        let name = "org.freedesktop.Notifications"
        guard let owner = try? await connection.nameOwner(of: name) else {
            findings.append(
                .problem("dbus", "notification server", "nobody serves \(name): notifications go nowhere", fix: "start relay-phone: systemctl --user start relay-phone"))
            return findings
        }
        // relay-phone says which unique name it holds; the owner is either that or someone else.
        let socket = ControlSocketPath.clientPath(role: "phone", environment: environment, uid: getuid())
        let phoneBus = (try? ControlClient.send(PhoneRequest.status, to: socket, agent: "relay-phone", start: "relay-phone"))?
            .values["bus"]?.description
        if owner == phoneBus {
            findings.append(.ok("dbus", "notification server", "relay-phone serves \(name)"))
        } else {
            let other = await Self.describe(owner, on: connection)
            findings.append(
                .problem(
                    "dbus", "notification server",
                    "\(other) owns \(name)" + (phoneBus == nil ? "" : "; relay-phone only monitors it and cannot act on its notifications"),
                    fix: "stop \(other), then restart relay-phone (systemctl --user restart relay-phone) so it serves \(name) itself"))
        }
        if let relay = try? await connection.nameOwner(of: "org.relay.Relay1"), relay == phoneBus {
            findings.append(.ok("dbus", "Relay's API", "relay-phone serves org.relay.Relay1"))
        } else {
            findings.append(
                .problem("dbus", "Relay's API", "nobody serves org.relay.Relay1 (Relay's own notification API)", fix: "start relay-phone: systemctl --user start relay-phone"))
        }
        return findings
    }

    /// A bus name's process for people: `dunst (pid 812)`, or the unique name when it cannot be read.
    static func describe(_ uniqueName: String, on connection: DBusConnection) async -> String {
        guard
            let reply = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "GetConnectionUnixProcessID", arguments: [.string(uniqueName)]),
            let pid = try? reply.decode(0, as: UInt32.self)
        else { return uniqueName }
        let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return "\(command ?? uniqueName) (pid \(pid))"
    }
}
