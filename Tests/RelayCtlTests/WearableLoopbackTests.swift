import Foundation
import RelayDisplay
import RelayTestSupport
import Testing

/// relay-wearable in loopback mode driven by relayctl through its control socket, as a user would.
///
/// Children are started with `ChildProcess` (posix_spawn, close-on-exec descriptors, a clean
/// signal mask) rather than Foundation's `Process`, which can hang when tests spawn in parallel.
@Suite struct WearableLoopbackTests {
    @Test(.timeLimit(.minutes(1))) func pressScreenshotStatusAndCleanStop() async throws {
        let directory = "/tmp/relay-ctl-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/wearable.sock"
        let agent = try ChildProcess(RelayCtlTests.binary("relay-wearable").path, [
            "--transport", "loopback", "--control-socket", socket, "--framebuffer", directory + "/wearable.fb",
            "--state-directory", directory + "/state", "--width", "200", "--height", "120", "--format", "xrgb8888", "--time-zone", "UTC",
        ])
        // Readiness is an event: the agent prints "ready:" once its socket accepts requests.
        var lines = agent.lines.makeAsyncIterator()
        let ready = await lines.next()
        guard ready?.hasPrefix("ready: control socket \(socket)") == true else {
            await agent.stop()
            Issue.record("relay-wearable did not become ready; it printed: \(ready ?? "nothing")")
            return
        }

        let press = try await relayctl(["press", "down", "--control-socket", socket])
        #expect(press == (0, "idle"))  // No notifications yet: Down stays on the watch face.

        let shot = try await relayctl(["screenshot", directory + "/out.png", "--control-socket", socket])
        #expect(shot.status == 0)
        let image = try PNGFile.read(from: directory + "/out.png")
        #expect(image.width == 200 && image.height == 120)
        // The face is drawn: not every pixel is the background's.
        #expect(Set(stride(from: 0, to: image.bytes.count, by: 3).map { image.bytes[$0] }).count > 1)

        let status = try await relayctl(["status", "--json", "--control-socket", socket])
        #expect(status.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
        #expect(object?["role"] as? String == "wearable")
        #expect(object?["screen"] as? String == "idle")
        #expect(object?["link"] as? String == "unpaired")
        #expect(object?["width"] as? Int == 200)
        #expect((object?["rssBytes"] as? Int ?? 0) > 0)

        // A refusal (the wearable does not keep the phone's delivered list) still prints the
        // agent's answer with --json, as it came, for scripts that read standard output.
        let refused = try await relayctl(["delivered", "--json", "--control-socket", socket])
        #expect(refused.status == 1)
        let answer = try JSONSerialization.jsonObject(with: Data(refused.output.utf8)) as? [String: Any]
        #expect(answer?["ok"] as? Bool == false && (answer?["error"] as? String)?.contains("unknown command") == true, "\(refused.output)")

        kill(agent.pid, SIGTERM)
        #expect(await agent.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(!FileManager.default.fileExists(atPath: directory + "/wearable-link.sock"))
        let after = try await relayctl(["status", "--control-socket", socket])
        #expect(after.status == 1)
    }

    /// Under systemd, standard error is the journal and `$JOURNAL_STREAM` names it: each log
    /// line then carries its priority, and a `status` poll is not logged at all at the default level.
    @Test(.timeLimit(.minutes(1))) func logLinesCarryTheirJournalPriorityAndStatusPollsStayQuiet() async throws {
        let directory = "/tmp/relay-ctl-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/wearable.sock"
        // The shell names its own standard error as the journal stream, as systemd would, then
        // becomes the agent.
        let agent = try ChildProcess("/bin/sh", [
            "-c", #"JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec "$0" "$@""#,
            RelayCtlTests.binary("relay-wearable").path, "--transport", "loopback", "--control-socket", socket,
            "--framebuffer", directory + "/wearable.fb", "--state-directory", directory + "/state",
        ], environment: ["RELAY_LOG": "info"], mergingStandardError: true)
        var lines = agent.lines.makeAsyncIterator()
        var before: [String] = []
        while let line = await lines.next(), !line.hasPrefix("ready:") { before.append(line) }
        // The configuration's line comes before "ready" (standard output, which is not the journal).
        #expect(before.contains { $0.hasPrefix("<6>relay-wearable: no configuration file") || $0.hasPrefix("<6>relay-wearable: configuration") }, "\(before)")
        #expect(try await relayctl(["status", "--control-socket", socket]).status == 0)
        #expect(try await relayctl(["press", "down", "--control-socket", socket]).status == 0)
        #expect(try await relayctl(["delivered", "--control-socket", socket]).status == 1)
        let press = await lines.next()
        let refused = await lines.next()
        #expect(press?.hasPrefix("<6>control: press from pid") == true, "\(press ?? "nothing")")
        #expect(refused?.hasPrefix("<4>control: delivered from pid") == true, "\(refused ?? "nothing")")
        kill(agent.pid, SIGTERM)
        #expect(await agent.wait() == 0)
    }

    /// Under a `Type=notify` unit: READY=1 once the agent serves, STOPPING=1 on SIGTERM.
    @Test(.timeLimit(.minutes(1))) func theServiceManagerIsToldWhenItIsReadyAndWhenItStops() async throws {
        let directory = "/tmp/relay-ctl-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notify = try DatagramReceiver(path: directory + "/notify")
        defer { notify.close() }
        let agent = try ChildProcess(RelayCtlTests.binary("relay-wearable").path, [
            "--transport", "loopback", "--control-socket", directory + "/wearable.sock",
            "--framebuffer", directory + "/wearable.fb", "--state-directory", directory + "/state",
        ], environment: ["NOTIFY_SOCKET": directory + "/notify"])
        let ready = notify.receive(timeoutSeconds: 30)
        #expect(ready?.hasPrefix("READY=1\nSTATUS=serving the control socket at \(directory)/wearable.sock") == true, "\(ready ?? "nothing")")
        // READY=1 comes only once the socket answers.
        #expect(try await relayctl(["status", "--control-socket", directory + "/wearable.sock"]).status == 0)
        kill(agent.pid, SIGTERM)
        #expect(notify.receive(timeoutSeconds: 30) == "STOPPING=1")
        #expect(await agent.wait() == 0)
    }

    @Test func rfcommSaysWhatIsMissing() async throws {
        // No fake Bluetooth link: the runtime without --transport loopback is not there yet.
        let agent = try ChildProcess(RelayCtlTests.binary("relay-wearable").path, ["--transport", "rfcomm"])
        for await _ in agent.lines {}
        #expect(await agent.wait() != 0)
    }

    /// Runs relayctl to completion: its exit status and standard output, trimmed.
    private func relayctl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let command = try ChildProcess(RelayCtlTests.binary("relayctl").path, arguments)
        var output: [String] = []
        for await line in command.lines { output.append(line) }
        return (await command.wait(), output.joined(separator: "\n"))
    }
}

/// A Unix datagram socket standing in for systemd's notification socket.
private struct DatagramReceiver {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// The next datagram, or `nil` when none came within the time.
    func receive(timeoutSeconds: Int32) -> String? {
        var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&polled, 1, timeoutSeconds * 1000) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
    }

    func close() { Glibc.close(descriptor) }
}
