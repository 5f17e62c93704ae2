import ArgumentParser
import Foundation
import Glibc
import RelayControl

/// The option every control command shares: the agent's socket, when not the default one.
///
/// One option name for both agents, as the agents themselves take `--control-socket`; the
/// command decides which agent (and so which default) it addresses.
struct ControlOptions: ParsableArguments {
    @Option(
        name: .customLong("control-socket"),
        help: ArgumentHelp(
            "The agent's control socket; default: ROLE.sock in $RUNTIME_DIRECTORY, else $XDG_RUNTIME_DIR/relay, else /tmp/relay-$UID, or /run/relay/ROLE.sock (a system service's) when only that exists.",
            discussion: "ROLE is phone for delivered, invoke, reply, dismiss, lock, unlock, reconnect, quiet-hours, status --phone, and dnd and mutes without --wearable; wearable otherwise."))
    var controlSocket: String?

    init() {}

    /// Options naming a socket directly (commands that talk to both agents).
    init(socket: String?) {
        controlSocket = socket
    }

    /// The socket path of the agent with `role`, made absolute.
    func path(role: String) -> String {
        let path = controlSocket
            ?? ControlSocketPath.clientPath(role: role, environment: ProcessInfo.processInfo.environment, uid: getuid())
        return Self.absolute(path)
    }

    /// A path relative to relayctl's directory made absolute: the agent runs elsewhere.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Sends a request to the agent that serves it; a failure response becomes an error (exit
    /// status 1). With `json`, the failure response is printed first, as it came, for scripts
    /// that read stdout.
    func send<Request: ControlRequest>(_ request: Request, timeoutSeconds: Int = 10, json: Bool = false) throws -> ControlResponse {
        let agent = Request.agent
        let response = try ControlClient.send(
            request, to: path(role: Request.role), agent: agent, start: "\(agent) --transport loopback", timeoutSeconds: timeoutSeconds)
        guard response.ok else {
            if json { print(String(decoding: try ControlJSON.encode(response), as: UTF8.self)) }
            throw ControlCommandError(description: "\(agent): " + (response.error ?? "the request failed"))
        }
        return response
    }
}

/// The options of the commands both agents answer (`dnd`, `mutes`): which agent, JSON, the socket.
struct EitherAgentOptions: ParsableArguments {
    @Flag(help: "Ask relay-wearable rather than relay-phone.")
    var wearable = false

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    /// Sends `phone`'s request to relay-phone, or `wearable`'s to relay-wearable; with `--json`
    /// prints the response and returns `nil`, leaving nothing for the caller to print.
    func send(phone: PhoneRequest, wearable request: WearableRequest) throws -> ControlResponse? {
        let response = wearable ? try control.send(request, json: json) : try control.send(phone, json: json)
        guard !json else {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return nil
        }
        return response
    }
}

/// A request the agent refused, with its explanation.
struct ControlCommandError: Error, CustomStringConvertible {
    let description: String
}
