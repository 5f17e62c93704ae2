import Foundation
import RelayDBus
import RelayTestSupport
import Synchronization

/// The two agents of a reliability run on a private bus, in one temporary directory: started,
/// killed with SIGKILL and started again on the same state and sockets, driven through relayctl,
/// and stopped however the run ends.
final class Rig: Sendable {
    /// A notification as `relayctl notifications --json` lists it.
    struct Shown: CustomStringConvertible {
        var id: Int
        var title: String
        var body: String
        var alerts: Int
        /// The interruption level and the freedesktop category hint, as the wearable holds them.
        var level = ""
        var category = ""
        var description: String { "\(id) \(title) alerts=\(alerts)" }
    }

    /// How the agents still running at the end stopped.
    struct Shutdown {
        /// Each agent's name and exit status.
        var stopped: [(name: String, status: Int32)] = []
        /// Sockets still there once they exited (a clean stop removes them).
        var socketsLeft: [String] = []
    }

    let bus: PrivateBus
    let directory: String
    let wearableSocket: String
    let phoneSocket: String
    /// Where relay-wearable listens for the phone.
    let linkSocket: String
    /// `--state-directory`, or `--state-dir` in builds from before its rename.
    private let stateFlag: String
    /// The rig's own bus connection, to see names come and go.
    private let watcher: DBusConnection
    private let agents = Mutex<(wearable: Agent?, phone: Agent?, lives: [Agent], others: [ChildProcess])>((nil, nil, [], []))

    private init(bus: PrivateBus, directory: String, stateFlag: String, watcher: DBusConnection) {
        self.bus = bus
        self.directory = directory
        wearableSocket = directory + "/w/wearable.sock"
        phoneSocket = directory + "/p/phone.sock"
        linkSocket = directory + "/w/wearable-link.sock"
        self.stateFlag = stateFlag
        self.watcher = watcher
    }

    /// Runs `body` with both agents started on a private bus and paired, then stops them,
    /// also when `body` throws.
    static func withPairedAgents(_ body: (Rig, PrivateBus) async throws -> Void) async throws {
        try await withPrivateBus { bus in
            try await with(bus: bus) { rig in
                try await rig.startWearable()
                try await rig.startPhone()
                try await rig.pair()
                try await body(rig, bus)
            }
        }
    }

    /// A rig on `bus` with no agent started yet, for `body` to start them (after writing their
    /// configuration, or beside a server of its own); every agent stops afterwards, also when
    /// `body` failed.
    static func with(bus: PrivateBus, _ body: (Rig) async throws -> Void) async throws {
        let rig = try await Rig.make(bus: bus)
        do {
            try await body(rig)
        } catch {
            await rig.stopAll()
            throw error
        }
        await rig.stopAll()
    }

    /// Writes `text` as the configuration file `name` (`phone.toml`, `filters.toml`) the agents read.
    func configure(_ name: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: directory + "/config/relay", withIntermediateDirectories: true)
        try text.write(toFile: directory + "/config/relay/" + name, atomically: true, encoding: .utf8)
    }

    /// A rig in a fresh directory (short, for the sockets' 108-byte limit).
    static func make(bus: PrivateBus) async throws -> Rig {
        let directory = "/tmp/relay-soak-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let help = try await runCommand(RelayCtlTests.binary("relay-wearable").path, ["--help"])
        let stateFlag = help.output.contains("--state-directory") ? "--state-directory" : "--state-dir"
        return Rig(bus: bus, directory: directory, stateFlag: stateFlag, watcher: try await bus.connect())
    }

    // MARK: The agents

    /// Starts relay-wearable on its state and sockets, and waits for its "ready:" line.
    func startWearable() async throws {
        let agent = try Agent(
            name: "relay-wearable", executable: RelayCtlTests.binary("relay-wearable").path,
            arguments: [
                "--transport", "loopback", "--control-socket", wearableSocket, "--framebuffer", directory + "/wearable.fb",
                stateFlag, directory + "/wearable-state", "--time-zone", "UTC", "--device-name", "soak-wearable",
                // The soak posts alerting notifications back to back and counts their alerts:
                // the gap between vibrations (Docs/POLICY.md) would keep most of them silent.
                "--minimum-alert-gap", "0",
            ],
            environment: environment)
        agents.withLock {
            $0.wearable = agent
            $0.lives.append(agent)
        }
        _ = try await agent.ready()
    }

    /// Starts relay-phone on its state and sockets, and waits until it serves the bus (or, with
    /// `mode` "monitor", monitors the server that does); `peer` puts something between the phone
    /// and the wearable's link socket (a link simulator).
    func startPhone(peer: String? = nil, mode: String = "server") async throws {
        let agent = try Agent(
            name: "relay-phone", executable: RelayCtlTests.binary("relay-phone").path,
            arguments: [
                "--transport", "loopback", "--bus", bus.address, "--system-bus", bus.address, "--control-socket", phoneSocket,
                stateFlag, directory + "/phone-state", "--peer", peer ?? linkSocket, "--device-name", "soak-phone",
            ],
            environment: environment)
        agents.withLock {
            $0.phone = agent
            $0.lives.append(agent)
        }
        let ready = try await agent.ready()
        guard ready.contains("mode: \(mode)") else { throw SoakFailure("relay-phone did not start in \(mode) mode: \(ready)") }
    }

    /// Sends `signal` to the phone, which goes on running (SIGHUP: its filter rules are read again).
    func signalPhone(_ signal: Int32) {
        if let pid = agents.withLock({ $0.phone?.process.pid }) { kill(pid, signal) }
    }

    /// `kill -9` of the wearable.
    func killWearable() async {
        let agent = agents.withLock { agents in
            defer { agents.wearable = nil }
            return agents.wearable
        }
        await agent?.process.stop(SIGKILL)
    }

    /// `kill -9` of the phone; returns once the bus has taken its names back, so that the next
    /// phone becomes the server instead of a monitor beside a dead one.
    func killPhone() async throws {
        let agent = agents.withLock { agents in
            defer { agents.phone = nil }
            return agents.phone
        }
        await agent?.process.stop(SIGKILL)
        try await until("the bus releases the dead phone's names", timeout: .seconds(10)) {
            for name in ["org.freedesktop.Notifications", "org.relay.Relay1"] {
                let owned = try await watcher.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    method: "NameHasOwner", arguments: [.string(name)])
                if try owned.decode(0, as: Bool.self) { return false }
            }
            return true
        }
    }

    /// Pairs as a user does: `relayctl pair --yes`, and Select on the wearable once it shows the code.
    func pair() async throws {
        let pairing = try ChildProcess(
            RelayCtlTests.binary("relayctl").path, ["pair", "--yes", "--phone-socket", phoneSocket], mergingStandardError: true)
        agents.withLock { $0.others.append(pairing) }
        try await until("the wearable shows the pairing code") { try await wearableStatus()["screen"] as? String == "pairing" }
        try await ctl(["press", "select", "--control-socket", wearableSocket])
        var output: [String] = []
        for await line in pairing.lines { output.append(line) }
        guard await pairing.wait() == 0 else { throw SoakFailure("relayctl pair failed: \(output.joined(separator: "\n"))") }
    }

    /// Stops what still runs: the agents with SIGTERM (SIGKILL after 10 s), anything else with
    /// SIGKILL. Keeps the agents' output in the directory with `RELAY_SOAK_KEEP=1`, else removes it.
    @discardableResult
    func stopAll() async -> Shutdown {
        let (running, lives, others) = agents.withLock { agents in
            defer {
                agents.wearable = nil
                agents.phone = nil
                agents.others.removeAll()
            }
            return ([agents.wearable, agents.phone].compactMap { $0 }, agents.lives, agents.others)
        }
        var shutdown = Shutdown()
        for agent in running {
            let process = agent.process
            let deadline = Task {
                guard (try? await Task.sleep(for: .seconds(10))) != nil else { return }
                await process.stop(SIGKILL)
            }
            await process.stop(SIGTERM)
            deadline.cancel()
            shutdown.stopped.append((agent.name, await process.wait()))
        }
        for process in others { await process.stop(SIGKILL) }
        shutdown.socketsLeft = [wearableSocket, phoneSocket, linkSocket].filter { FileManager.default.fileExists(atPath: $0) }
        if ProcessInfo.processInfo.environment["RELAY_SOAK_KEEP"] != nil {
            for (index, agent) in lives.enumerated() {
                try? agent.lines.elements.joined(separator: "\n")
                    .write(toFile: directory + "/\(index)-\(agent.name).log", atomically: true, encoding: .utf8)
            }
            print("relay soak: agents' output kept in \(directory)")
        } else {
            try? FileManager.default.removeItem(atPath: directory)
        }
        return shutdown
    }

    /// Notification key → alerts, over every life of the wearable, from its log lines.
    func alertsByIdentifier() -> [String: Int] {
        let prefix = "relay-wearable: alert for notification "
        var counts: [String: Int] = [:]
        for agent in agents.withLock({ $0.lives }) where agent.name == "relay-wearable" {
            for line in agent.lines.elements where line.hasPrefix(prefix) {
                counts[String(line.dropFirst(prefix.count)), default: 0] += 1
            }
        }
        return counts
    }

    /// relay-phone's lines, over every life.
    func phoneLines() -> [String] {
        agents.withLock { $0.lives }.filter { $0.name == "relay-phone" }.flatMap { $0.lines.elements }
    }

    /// Lines in which a link ended for a reason other than a drop or a kill: a protocol
    /// violation, a failure to persist (or another rule this side broke), a gap in a log.
    func linkFailures() -> [String] {
        let symptoms = ["protocol violation", "this side could not", "broke the session's rules", "could not store", "is the last applied"]
        return agents.withLock { $0.lives }.flatMap { agent in
            agent.lines.elements.filter { line in symptoms.contains { line.contains($0) } }.map { "\(agent.name): \($0)" }
        }
    }

    // MARK: relayctl

    /// Runs relayctl; a failure is an error with what it printed.
    @discardableResult
    func ctl(_ arguments: [String]) async throws -> String {
        let command = try ChildProcess(RelayCtlTests.binary("relayctl").path, arguments, mergingStandardError: true)
        var output: [String] = []
        for await line in command.lines { output.append(line) }
        let status = await command.wait()
        let text = output.joined(separator: "\n")
        guard status == 0 else { throw SoakFailure("relayctl \(arguments.joined(separator: " ")) failed (\(status)): \(text)") }
        return text
    }

    private func json(_ arguments: [String]) async throws -> [String: Any] {
        let output = try await ctl(arguments + ["--json"])
        guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            throw SoakFailure("relayctl \(arguments.joined(separator: " ")) printed no JSON object: \(output)")
        }
        return object
    }

    func wearableStatus() async throws -> [String: Any] {
        try await json(["status", "--control-socket", wearableSocket])
    }

    func phoneStatus() async throws -> [String: Any] {
        try await json(["status", "--phone", "--control-socket", phoneSocket])
    }

    /// What the wearable's screen has.
    func wearableNotifications() async throws -> [Shown] {
        let entries = try await json(["notifications", "--control-socket", wearableSocket])["notifications"] as? [[String: Any]] ?? []
        return entries.map { entry in
            Shown(
                id: entry["id"] as? Int ?? 0, title: entry["title"] as? String ?? "", body: entry["body"] as? String ?? "",
                alerts: entry["alerts"] as? Int ?? 0, level: entry["level"] as? String ?? "", category: entry["category"] as? String ?? "")
        }
    }

    /// The phone's centre, as "id title body".
    func phoneDelivered() async throws -> [String] {
        let entries = try await json(["delivered", "--control-socket", phoneSocket])["notifications"] as? [[String: Any]] ?? []
        return entries.map { "\($0["id"] as? Int ?? 0) \($0["summary"] as? String ?? "") \($0["body"] as? String ?? "")" }
    }

    /// The wearable's key of the notification titled `title`, once its screen has it.
    func waitUntilShown(_ title: String) async throws -> Int {
        var key: Int?
        try await until("\(title) reaches the wearable") {
            key = try await wearableNotifications().first { $0.title == title }?.id
            return key != nil
        }
        return key ?? 0
    }

    /// Waits until both logs are through: the phone's changes acknowledged by the wearable and
    /// the wearable's events (responses, alert reports) by the phone, on a session that is up.
    func waitForConvergence() async throws {
        try await until("both logs are acknowledged", timeout: .seconds(60)) {
            let phone = try await phoneStatus()
            guard phone["link"] as? String == "connected", phone["unacknowledged"] as? Int == 0 else { return false }
            let wearable = try await wearableStatus()
            guard wearable["link"] as? String == "connected", wearable["queued"] as? Int == 0 else { return false }
            // A response applied meanwhile makes new changes for the wearable.
            return try await phoneStatus()["unacknowledged"] as? Int == 0
        }
    }

    /// Polls `condition` until it holds; an error naming `what` after `timeout`.
    func until(_ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw SoakFailure("\(what): not within \(timeout)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Agents read no configuration file of the machine's user.
    /// GSettings in a key file under the rig's own configuration: what an agent writes there
    /// (GNOME's banners, `mirror.only_wearable_alerts`) never reaches the user's dconf.
    private var environment: [String: String] { ["XDG_CONFIG_HOME": directory + "/config", "GSETTINGS_BACKEND": "keyfile"] }
}

/// One life of an agent: its process and everything it printed (standard output and error).
final class Agent: Sendable {
    static let ended = "\u{0}ended"
    let name: String
    let process: ChildProcess
    let lines = EventLog<String>()

    init(name: String, executable: String, arguments: [String], environment: [String: String]) throws {
        self.name = name
        process = try ChildProcess(executable, arguments, environment: environment, mergingStandardError: true)
        Task { [process, lines] in
            for await line in process.lines { lines.append([line]) }
            lines.append([Self.ended])
        }
    }

    /// The "ready:" line, once printed; an error with the agent's last words if it ends first.
    func ready() async throws -> String {
        _ = await lines.wait(timeout: .seconds(30)) { $0.contains { $0.hasPrefix("ready:") || $0 == Self.ended } }
        let printed = lines.elements
        guard let ready = printed.first(where: { $0.hasPrefix("ready:") }) else {
            throw SoakFailure("\(name) did not become ready; it printed:\n" + printed.suffix(20).joined(separator: "\n"))
        }
        return ready
    }
}

/// A failure of a reliability run, in words.
struct SoakFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
