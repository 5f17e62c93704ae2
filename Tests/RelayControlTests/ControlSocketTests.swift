import Foundation
import RelayControl
import RelaySystem
import RelayTestSupport
import Testing

/// The control socket over a real Unix socket: the listener on a thread, the client in the test.
@Suite struct ControlSocketTests {
    @Test func requestAndResponseRoundTrip() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/agent.sock"
        let server = try TestServer(path: path, count: 2)
        let response = try ControlClient.send(TestRequest("status"), to: path, agent: "test-agent", start: "test-agent")
        #expect(response == .success(["echo": .string("status"), "answer": .int(42)]))
        let failure = try ControlClient.send(TestRequest("fail"), to: path, agent: "test-agent", start: "test-agent")
        #expect(failure == .failure("asked to fail"))
        await server.finished.wait()
        #expect(server.outcomes.count == 2)
        #expect(server.outcomes.first?.hasPrefix("control: status from pid \(getpid())") == true)
    }

    @Test func aReplyListingThousandsOfNotificationsIsRead() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/agent.sock"
        let server = try TestServer(path: path, count: 1)
        let response = try ControlClient.send(TestRequest("large"), to: path, agent: "test-agent", start: "test-agent")
        guard case .list(let entries) = response.values["notifications"] else {
            Issue.record("no list in \(response.values.keys)")
            return
        }
        #expect(entries.count == 5000)
        await server.finished.wait()
    }

    @Test func anAgentThatNeverAnswersIsGivenUpWithAMessage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/agent.sock"
        // Listening, never accepting: the connection waits in the queue, as with a hung agent.
        let listener = try ControlListener.open(path: path)
        defer { listener.close() }
        #expect(throws: ControlError.timedOut(agent: "test-agent", seconds: 1)) {
            _ = try ControlClient.send(TestRequest("status"), to: path, agent: "test-agent", start: "test-agent", timeoutSeconds: 1)
        }
        #expect(ControlError.timedOut(agent: "test-agent", seconds: 1).description.contains("did not answer within 1 s"))
    }

    @Test func socketFileIsPrivateAndRemovedOnClose() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/fresh/agent.sock"
        let listener = try ControlListener.open(path: path)
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o600)
        // The directory the listener created is private too.
        #expect(lstat(directory.path + "/fresh", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        listener.close()
        listener.close()
        #expect(lstat(path, &status) != 0)
    }

    @Test func malformedRequestGetsAnErrorAndTheServerKeepsServing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/agent.sock"
        let server = try TestServer(path: path, count: 3)
        let garbage = try exchangeRaw(Array("{\"command\": 12\n".utf8), path: path)
        let reply = try ControlJSON.decode(ControlResponse.self, from: Data(garbage.utf8))
        #expect(!reply.ok)
        #expect(reply.error?.contains("not a control request") == true)
        #expect(garbage.hasSuffix("\n"))
        let empty = try exchangeRaw([], path: path)
        #expect(empty.isEmpty)
        let response = try ControlClient.send(TestRequest("after"), to: path, agent: "test-agent", start: "test-agent")
        #expect(response.values["echo"] == .string("after"))
        await server.finished.wait()
        #expect(server.outcomes.filter { $0.contains("malformed") }.count == 2)
    }

    @Test func aRequestTheAgentDoesNotServeIsAnsweredBeforeItReachesTheAgent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/agent.sock"
        let listener = try ControlListener.open(path: path)
        let served = Gate()
        let log = OutcomeLog()
        let reached = OutcomeLog()
        Thread.detachNewThread {
            for _ in 0..<2 {
                let outcome = listener.serveOne(timeoutMilliseconds: -1) { (request: WearableRequest) in
                    reached.append(request.command)
                    return .success()
                }
                if let outcome { log.append(outcome.description) }
            }
            served.open()
        }
        // relay-phone's command sent to relay-wearable, then a press with no key.
        let delivered = try ControlClient.send(PhoneRequest.delivered, to: path, agent: "relay-wearable", start: "relay-wearable")
        #expect(delivered.error?.hasPrefix("unknown command 'delivered'; relay-wearable knows: status, press") == true)
        let press = try exchangeRaw(Array(#"{"command":"press"}"#.utf8) + [10], path: path)
        #expect(try ControlJSON.decode(ControlResponse.self, from: Data(press.utf8)).error == "press needs \"key\": one of up, down, select, back")
        await served.wait()
        #expect(reached.lines.isEmpty)
        #expect(log.lines.count == 2)
        #expect(log.lines.first?.hasPrefix("control: delivered from pid \(getpid()): failed: unknown command") == true)
        listener.close()
    }

    @Test func missingSocketSaysTheAgentIsNotRunningAndHowToStartIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect {
            try ControlClient.send(
                TestRequest("status"), to: directory.path + "/none.sock", agent: "relay-wearable",
                start: "relay-wearable --transport loopback")
        } throws: { error in
            "\(error)".contains("relay-wearable is not running") && "\(error)".contains("start it with: relay-wearable --transport loopback")
        }
    }

    @Test func staleSocketIsReplacedAndALiveOneIsNot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/agent.sock"
        // What a crash leaves: a socket file that nobody listens on.
        try bindWithoutListening(path)
        let replacement = try ControlListener.open(path: path)
        #expect(throws: ControlError.alreadyRunning(path: path)) { try ControlListener.open(path: path) }
        replacement.close()
    }

    @Test func directoryWritableByOthersIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let shared = directory.path + "/shared"
        #expect(mkdir(shared, 0o700) == 0)
        #expect(chmod(shared, 0o777) == 0)
        #expect {
            try ControlListener.open(path: shared + "/agent.sock")
        } throws: { error in
            "\(error)".contains("others can write to it (mode 777)")
        }
    }

    @Test func defaultPathsFollowTheRuntimeDirectory() {
        #expect(ControlSocketPath.defaultPath(role: "wearable", environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
            == "/run/user/1000/relay/wearable.sock")
        #expect(ControlSocketPath.defaultPath(role: "wearable", environment: ["XDG_RUNTIME_DIR": "relative"], uid: 7)
            == "/tmp/relay-7/wearable.sock")
        #expect(ControlSocketPath.defaultPath(role: "phone", environment: [:], uid: 7) == "/tmp/relay-7/phone.sock")
        // A service's RuntimeDirectory= comes first, used as it is (the first of several).
        #expect(ControlSocketPath.defaultPath(
            role: "wearable", environment: ["RUNTIME_DIRECTORY": "/run/relay:/run/other", "XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
            == "/run/relay/wearable.sock")
        #expect(ControlSocketPath.defaultPath(role: "phone", environment: ["RUNTIME_DIRECTORY": "relative"], uid: 7) == "/tmp/relay-7/phone.sock")
    }
}
