import Foundation
import RelayDBus
import RelayTestSupport

/// The built agents and relayctl on a private bus that stands in for both the session and the
/// system bus, with the bluetoothd mock (Tests/RelayBluetoothTests/Mock/relay_bluez.py) on it.
struct BluetoothRig: Sendable {
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RelayBluetoothTests/Mock/relay_bluez.py").path
    static let wearableAddress = "AA:BB:CC:DD:EE:01"
    static let phoneAddress = "11:22:33:44:55:66"

    static func binary(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    let bus: PrivateBus
    let control: DBusConnection
    let directory: String

    var phoneSocket: String { directory + "/p/phone.sock" }
    var wearableSocket: String { directory + "/w/wearable.sock" }
    /// Agents and relayctl find the "system bus" here and read no configuration of the machine's user.
    var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_CONFIG_HOME": directory + "/config"] }

    /// A rig in a fresh, short directory (the sockets' 108-byte limit).
    static func make(bus: PrivateBus) async throws -> BluetoothRig {
        let directory = "/tmp/relay-bt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        return BluetoothRig(bus: bus, control: try await bus.connect(), directory: directory)
    }

    /// One of the mock's own methods.
    @discardableResult
    func mock(_ method: String, _ arguments: [String]) async throws -> [DBusValue] {
        try await control.call(
            destination: "org.bluez", path: "/", interface: "org.bluez.Mock", method: method,
            arguments: arguments.map { .string($0) })
    }

    /// The mock's announcements (`MethodCalled` on /org/bluez).
    func announcements() async throws -> AsyncStream<DBusMessage> {
        try await control.signals(
            matching: .signal(sender: "org.bluez", interface: "org.freedesktop.DBus.Mock", member: "MethodCalled", path: "/org/bluez"))
    }

    func startWearable(_ extra: [String] = []) throws -> AgentProcess {
        try AgentProcess(
            name: "relay-wearable",
            arguments: [
                "--transport", "rfcomm", "--control-socket", wearableSocket, "--framebuffer", directory + "/wearable.fb",
                "--state-directory", directory + "/wearable-state", "--time-zone", "UTC", "--device-name", "bt-wearable",
            ] + extra, environment: environment)
    }

    func startPhone(_ extra: [String] = []) throws -> AgentProcess {
        try AgentProcess(
            name: "relay-phone",
            arguments: [
                "--transport", "rfcomm", "--bus", bus.address, "--system-bus", bus.address, "--control-socket", phoneSocket,
                "--state-directory", directory + "/phone-state", "--device-name", "bt-phone",
            ] + extra, environment: environment)
    }

    /// relayctl to completion: exit status and output (standard error included).
    func relayctl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let command = try ChildProcess(Self.binary("relayctl"), arguments, environment: environment, mergingStandardError: true)
        var output: [String] = []
        for await line in command.lines { output.append(line) }
        return (await command.wait(), output.joined(separator: "\n"))
    }

    /// `relayctl status --json` of one agent.
    func status(phone: Bool) async throws -> [String: Any] {
        let result = try await relayctl(
            ["status", "--json", "--control-socket", phone ? phoneSocket : wearableSocket] + (phone ? ["--phone"] : []))
        return (try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]) ?? [:]
    }

    /// Polls an agent's status (status has no change notifications) until `condition` holds.
    func until(
        _ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw RigFailure("\(what): not within \(timeout)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// An agent's process and everything it printed (standard output and error).
final class AgentProcess: Sendable {
    static let ended = "\u{0}ended"
    let name: String
    let process: ChildProcess
    let lines = EventLog<String>()

    init(name: String, arguments: [String], environment: [String: String]) throws {
        self.name = name
        process = try ChildProcess(BluetoothRig.binary(name), arguments, environment: environment, mergingStandardError: true)
        Task { [process, lines] in
            for await line in process.lines { lines.append([line]) }
            lines.append([Self.ended])
        }
    }

    /// The "ready:" line; an error with the agent's last words if it ends first.
    func ready() async throws -> String {
        _ = await lines.wait(timeout: .seconds(30)) { $0.contains { $0.hasPrefix("ready:") || $0 == Self.ended } }
        guard let ready = lines.elements.first(where: { $0.hasPrefix("ready:") }) else {
            throw RigFailure("\(name) did not become ready; it printed:\n" + lines.elements.suffix(20).joined(separator: "\n"))
        }
        return ready
    }

    /// Waits for a printed line containing `text`.
    func printed(_ text: String, timeout: Duration = .seconds(30)) async -> Bool {
        await lines.wait(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    func stop() async {
        await process.stop(SIGTERM)
    }
}

struct RigFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
