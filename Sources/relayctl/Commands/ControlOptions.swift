import ArgumentParser
import Foundation
import Glibc
import RelayControl

/// The option every control command shares: which agent's socket to talk to.
struct ControlOptions: ParsableArguments {
    @Option(
        name: .customLong("control-socket"),
        help: "The agent's control socket; default: $XDG_RUNTIME_DIR/relay/wearable.sock, else /tmp/relay-$UID/wearable.sock.")
    var controlSocket: String?

    /// The socket path, made absolute.
    var path: String {
        let path = controlSocket
            ?? ControlSocketPath.defaultPath(role: "wearable", environment: ProcessInfo.processInfo.environment, uid: getuid())
        return Self.absolute(path)
    }

    /// A path relative to relayctl's directory made absolute: the agent runs elsewhere.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Sends a request to the wearable agent; a failure response becomes an error (exit status 1).
    func send(_ request: ControlRequest) throws -> ControlResponse {
        let response = try ControlClient.send(
            request, to: path, agent: "relay-wearable", start: "relay-wearable --transport loopback")
        guard response.ok else { throw ControlCommandError(description: "relay-wearable: " + (response.error ?? "the request failed")) }
        return response
    }
}

/// A request the agent refused, with its explanation.
struct ControlCommandError: Error, CustomStringConvertible {
    let description: String
}
