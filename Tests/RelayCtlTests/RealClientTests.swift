import Foundation
import RelayTestSupport
import Testing

/// Apps written with notification libraries nobody on this project wrote (Tests/Clients, from
/// PyPI, installed by scripts/bootstrap.sh) against relay-phone in loopback with a paired
/// wearable: every callback they offer fires exactly once from the wearable's keys.
@Suite struct RealClientTests {
    static let clients = RelayCtlTests.repository.appendingPathComponent("Tests/Clients")
    static let python = RelayCtlTests.repository.appendingPathComponent(".build-clients/venv/bin/python").path

    /// The client `script` started on `rig`'s bus, its printed lines read one by one.
    struct Client {
        let process: ChildProcess
        var lines: AsyncStream<String>.Iterator

        init(_ script: String, bus: String) throws {
            guard FileManager.default.isExecutableFile(atPath: RealClientTests.python) else {
                throw SoakFailure("no \(RealClientTests.python): run scripts/bootstrap.sh (make test does) to install Tests/Clients/requirements.txt")
            }
            process = try ChildProcess(
                RealClientTests.python, [RealClientTests.clients.appendingPathComponent(script).path, "100"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus], mergingStandardError: true)
            lines = process.lines.makeAsyncIterator()
        }

        /// The next line the client prints; a failure when it ends first.
        mutating func next() async throws -> String {
            guard let line = await lines.next() else { throw SoakFailure("the client ended early, status \(await process.wait())") }
            return line
        }
    }

    /// Presses `keys` on the wearable, one after another.
    static func press(_ keys: [String], on rig: Rig) async throws {
        for key in keys { _ = try await rig.ctl(["press", key, "--control-socket", rig.wearableSocket]) }
    }

    /// Waits until `title` is the only notification on the wearable, so the keys reach it.
    static func waitUntilAlone(_ title: String, on rig: Rig) async throws {
        try await rig.until("\(title) alone on the wearable") { try await rig.wearableNotifications().map(\.title) == [title] }
    }

    /// desktop-notifier sends a button, a reply field and a click (`default`) with each
    /// notification. Its long look's buttons: Mark read, Reply, Open on phone, Clear, Dismiss.
    @Test(.timeLimit(.minutes(3))) func desktopNotifierHearsEachCallbackOnce() async throws {
        try await withPrivateBus { bus in
            try await Rig.with(bus: bus) { rig in
                try rig.configure("phone.toml", "[replies]\ncanned = [\"Running late\"]\nemoji = []\n")
                try await rig.startWearable()
                try await rig.startPhone()
                try await rig.pair()
                var client = try Client("desktop_notifier_client.py", bus: bus.address)
                // Watch face → list → long look → its first button; then down to the one wanted.
                let open = ["down", "select", "select"]
                let steps: [(title: String, keys: [String], heard: String)] = [
                    ("Press me", open + ["select"], "Press me pressed"),
                    ("Reply to me", open + ["down", "select", "select"], "Reply to me replied Running late"),
                    ("Open me", open + ["down", "down", "select"], "Open me clicked"),
                    ("Dismiss me", open + ["down", "down", "down", "down", "select"], "Dismiss me dismissed"),
                ]
                for step in steps {
                    #expect(try await client.next() == "sent \(step.title)")
                    try await Self.waitUntilAlone(step.title, on: rig)
                    try await Self.press(step.keys, on: rig)
                    #expect(try await client.next() == step.heard)
                    try await rig.until("\(step.title) gone from the wearable") {
                        try await rig.wearableNotifications().allSatisfy { $0.title != step.title }
                    }
                }
                #expect(try await client.next() == "done")
                #expect(await client.process.wait() == 0)
            }
        }
    }

    /// notify2 calls back for every signal that names its notification, so a signal sent twice
    /// would print twice. Its long look's buttons: Later, Clear, Dismiss (no click offered).
    @Test(.timeLimit(.minutes(3))) func notify2HearsEachSignalOnce() async throws {
        try await Rig.withPairedAgents { rig, bus in
            var client = try Client("notify2_client.py", bus: bus.address)
            #expect(try await client.next() == "sent Press later")
            try await Self.waitUntilAlone("Press later", on: rig)
            try await Self.press(["down", "select", "select", "select"], on: rig)
            #expect(try await client.next() == "Press later action later")
            // Not resident: the phone closes it once its action is done.
            #expect(try await client.next() == "Press later closed")

            #expect(try await client.next() == "sent Dismiss now")
            try await Self.waitUntilAlone("Dismiss now", on: rig)
            try await Self.press(["down", "select", "select", "down", "down", "select"], on: rig)
            #expect(try await client.next() == "Dismiss now closed")
            #expect(try await client.next() == "done")
            #expect(await client.process.wait() == 0)
        }
    }
}
