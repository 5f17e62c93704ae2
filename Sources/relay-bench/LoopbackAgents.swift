import Foundation
import RelayTestSupport

/// relay-wearable and relay-phone in loopback mode on one bus, started, paired and locked the
/// way scripts/demo.sh does it: the wearable first, the phone pointed at its link socket,
/// `relayctl pair --yes` with Select pressed on the wearable once it shows the code, then
/// `relayctl lock` so that the phone mirrors.
///
/// The agents' standard error (their logs) goes to /dev/null, as the benchmark measures
/// them and not a log reader.
final class LoopbackAgents: Sendable {
    let wearable: ChildProcess
    let phone: ChildProcess
    let wearableSocket: String
    let phoneSocket: String
    private let relayctl: String

    /// Starts both agents from `binDirectory` with their state in `directory`; the wearable
    /// writes its present trace to `trace`. `linkThrough` gets the wearable's link socket and
    /// returns the one relay-phone connects to (a `LinkSwitch` or the link simulator in front of
    /// it, listening by the time it returns); by default the phone connects to the wearable directly.
    static func start(
        binDirectory: String, bus: String, directory: String, trace: String,
        linkThrough: (String) async throws -> String = { $0 }
    ) async throws -> LoopbackAgents {
        let wearablePath = try executable("relay-wearable", in: binDirectory)
        let phonePath = try executable("relay-phone", in: binDirectory)
        let relayctl = try executable("relayctl", in: binDirectory)
        for side in ["wearable", "phone"] {
            // Private, as the demo makes them: the control sockets live here.
            try FileManager.default.createDirectory(
                atPath: directory + "/" + side, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let wearableSocket = directory + "/wearable/wearable.sock"
        let phoneSocket = directory + "/phone/phone.sock"
        let wearable = try ChildProcess(
            wearablePath,
            [
                "--transport", "loopback", "--device-name", "Bench Watch", "--control-socket", wearableSocket,
                "--framebuffer", directory + "/wearable/framebuffer",
                try await stateOption(of: wearablePath), directory + "/wearable/state", "--time-zone", "UTC",
                // Notify → pixels is the alert's path: with the gap between vibrations (Docs/POLICY.md)
                // most notifications of a run would arrive silently on the watch face, drawing nothing.
                "--minimum-alert-gap", "0",
            ],
            environment: ["RELAY_PRESENT_TRACE": trace])
        let linkSocket: String
        do {
            let ready = try await readyLine(of: wearable, "relay-wearable")
            linkSocket = try await linkThrough(field("link socket", in: ready) ?? directory + "/wearable/wearable-link.sock")
        } catch {
            await wearable.stop()
            throw error
        }
        let phone: ChildProcess
        do {
            phone = try ChildProcess(
                phonePath,
                [
                    "--transport", "loopback", "--device-name", "Bench Phone", "--bus", bus, "--system-bus", bus,
                    "--control-socket", phoneSocket, try await stateOption(of: phonePath), directory + "/phone/state",
                    "--peer", linkSocket,
                ])
        } catch {
            await wearable.stop()
            throw error
        }
        let agents = LoopbackAgents(
            wearable: wearable, phone: phone, wearableSocket: wearableSocket, phoneSocket: phoneSocket, relayctl: relayctl)
        do {
            let ready = try await readyLine(of: phone, "relay-phone")
            guard ready.hasSuffix("mode: server") else {
                throw BenchError("relay-phone started as '\(ready)', not as the notification server on the benchmark's bus")
            }
        } catch {
            await agents.stop()
            throw error
        }
        return agents
    }

    private init(wearable: ChildProcess, phone: ChildProcess, wearableSocket: String, phoneSocket: String, relayctl: String) {
        self.wearable = wearable
        self.phone = phone
        self.wearableSocket = wearableSocket
        self.phoneSocket = phoneSocket
        self.relayctl = relayctl
    }

    /// Pairs them as the demo does: `relayctl pair --yes`, then Select on the wearable once it
    /// shows the code; returns once the wearable reports the link connected.
    func pair() async throws {
        let pairing = try ChildProcess(relayctl, ["pair", "--yes", "--phone-socket", phoneSocket], mergingStandardError: true)
        do {
            try await awaitWearable("screen", "pairing")
            _ = try await control(["press", "select", "--control-socket", wearableSocket])
        } catch {
            await pairing.stop()
            throw error
        }
        var output: [String] = []
        for await line in pairing.lines { output.append(line) }
        guard await pairing.wait() == 0 else {
            throw BenchError("relayctl pair failed: \(output.joined(separator: " / "))")
        }
        try await awaitWearable("link", "connected")
    }

    /// `relayctl lock` on the phone: from now on it mirrors to the wearable, which alerts.
    func lock() async throws {
        _ = try await control(["lock", "--control-socket", phoneSocket])
    }

    /// A field of `relayctl status` on the wearable (`notifications`, `screen`, `link`).
    func wearableStatus(_ name: String) async throws -> String? {
        Self.field(name, ofStatus: try await control(["status", "--control-socket", wearableSocket]))
    }

    /// A field of `relayctl status --phone` (`link`, `unacknowledged`, `notifications`).
    func phoneStatus(_ name: String) async throws -> String? {
        Self.field(name, ofStatus: try await control(["status", "--phone", "--control-socket", phoneSocket]))
    }

    /// `relayctl reconnect`: relay-phone connects again at once instead of after its backoff.
    func reconnect() async throws {
        _ = try await control(["reconnect", "--control-socket", phoneSocket])
    }

    /// The titles of the notifications the wearable's screen has (`relayctl notifications --json`).
    func wearableTitles() async throws -> [String] {
        let output = try await control(["notifications", "--json", "--control-socket", wearableSocket])
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let entries = object["notifications"] as? [[String: Any]]
        else { throw BenchError("relayctl notifications --json answered something else than a list of notifications: \(output.prefix(200))") }
        return entries.compactMap { $0["title"] as? String }
    }

    /// Waits (up to `timeout`) until the phone's status field `name` satisfies `accept`.
    func awaitPhone(_ name: String, timeout: Duration = .seconds(10), _ accept: (String?) -> Bool) async throws {
        var last: String?
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            last = try await phoneStatus(name)
            if accept(last) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError("relay-phone's \(name) stayed '\(last ?? "missing")' for \(timeout); run relayctl status --phone by hand to see why")
    }

    private static func field(_ name: String, ofStatus output: String) -> String? {
        let prefix = name + ": "
        return output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Stops both agents with SIGTERM, the phone first, as a user's session would end.
    func stop() async {
        await phone.stop(SIGTERM)
        await wearable.stop(SIGTERM)
    }

    /// Waits (up to 10 s) until the wearable's status field `name` reads `value`: the agents
    /// work on their own threads and announce nothing, so, as in the demo, the state is watched.
    func awaitWearable(_ name: String, _ value: String) async throws {
        var last: String?
        for _ in 0..<100 {
            last = try await wearableStatus(name)
            if last == value { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchError("the wearable's \(name) never became '\(value)' (it is '\(last ?? "missing")'); is relayctl built beside relay-bench?")
    }

    private func control(_ arguments: [String]) async throws -> String {
        // Standard error too: relayctl says there why it failed.
        let command = try ChildProcess(relayctl, arguments, mergingStandardError: true)
        var lines: [String] = []
        for await line in command.lines { lines.append(line) }
        let status = await command.wait()
        let output = lines.joined(separator: "\n")
        guard status == 0 else { throw BenchError("relayctl \(arguments.joined(separator: " ")) failed (\(status)): \(output)") }
        return output
    }

    /// `name` in `directory`, if it is an executable.
    static func executable(_ name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("no \(name) at \(path); build it beside relay-bench: swift build -c release --product \(name)")
        }
        return path
    }

    /// The state directory's option: `--state-directory`, or `--state-dir` in builds from before the rename.
    private static func stateOption(of executable: String) async throws -> String {
        let (_, help) = try await runCommand(executable, ["--help"])
        return help.contains("--state-directory") ? "--state-directory" : "--state-dir"
    }

    /// The first line of an agent's standard output, which must start with "ready:".
    private static func readyLine(of agent: ChildProcess, _ name: String) async throws -> String {
        var lines = agent.lines.makeAsyncIterator()
        guard let ready = await lines.next(), ready.hasPrefix("ready:") else {
            throw BenchError("\(name) stopped before it was ready; run it by hand with the same options to see why")
        }
        return ready
    }

    /// `link socket /path` out of relay-wearable's ready line.
    private static func field(_ name: String, in line: String) -> String? {
        guard let range = line.range(of: name + " ") else { return nil }
        return line[range.upperBound...].split(separator: ",").first.map(String.init)
    }
}
