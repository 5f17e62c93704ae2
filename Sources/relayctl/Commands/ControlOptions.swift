import ArgumentParser
import Foundation
import Glibc
import RelayControl

/// Which agent a control command talks to; each has its own socket (Docs/CONTROL.md).
enum ControlAgent {
    case wearable, phone

    /// The socket's name in the runtime directory: `wearable.sock`, `phone.sock`.
    var role: String {
        switch self {
        case .wearable: "wearable"
        case .phone: "phone"
        }
    }

    var executable: String { "relay-\(role)" }
}

/// The option every control command shares: the agent's socket, when not the default one.
///
/// One option name for both agents, as the agents themselves take `--control-socket`; the
/// command decides which agent (and so which default) it addresses.
struct ControlOptions: ParsableArguments {
    @Option(
        name: .customLong("control-socket"),
        help: ArgumentHelp(
            "The agent's control socket; default: ROLE.sock in $RUNTIME_DIRECTORY (a systemd service's), else $XDG_RUNTIME_DIR/relay, else /tmp/relay-$UID/ROLE.sock.",
            discussion: "ROLE is phone for delivered, invoke, reply, dismiss, lock, unlock, reconnect and status --phone; wearable otherwise."))
    var controlSocket: String?

    init() {}

    /// Options naming a socket directly (commands that talk to both agents).
    init(socket: String?) {
        controlSocket = socket
    }

    /// The socket path for `agent`, made absolute.
    func path(for agent: ControlAgent) -> String {
        let path = controlSocket
            ?? ControlSocketPath.defaultPath(role: agent.role, environment: ProcessInfo.processInfo.environment, uid: getuid())
        return Self.absolute(path)
    }

    /// A path relative to relayctl's directory made absolute: the agent runs elsewhere.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Sends a request to an agent; a failure response becomes an error (exit status 1). With
    /// `json`, the failure response is printed first, as it came, for scripts that read stdout.
    func send(
        _ request: ControlRequest, to agent: ControlAgent = .wearable, timeoutSeconds: Int = 10, json: Bool = false
    ) throws -> ControlResponse {
        let response = try ControlClient.send(
            request, to: path(for: agent), agent: agent.executable, start: "\(agent.executable) --transport loopback",
            timeoutSeconds: timeoutSeconds)
        guard response.ok else {
            if json { print(String(decoding: try ControlJSON.encode(response), as: UTF8.self)) }
            throw ControlCommandError(description: "\(agent.executable): " + (response.error ?? "the request failed"))
        }
        return response
    }
}

/// A request the agent refused, with its explanation.
struct ControlCommandError: Error, CustomStringConvertible {
    let description: String
}
