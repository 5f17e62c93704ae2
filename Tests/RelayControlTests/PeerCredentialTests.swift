import Foundation
import RelayControl
import RelaySystem
import RelayTestSupport
import Testing

/// Only the agent's own user may use its control socket.
@Suite struct PeerCredentialTests {
    @Test func onlyTheOwnerIsAllowed() {
        #expect(ControlAccess.allows(peerUID: 1000, ownerUID: 1000))
        #expect(!ControlAccess.allows(peerUID: 1001, ownerUID: 1000))
        #expect(!ControlAccess.allows(peerUID: 0, ownerUID: 1000))
        #expect(ControlAccess.allows(peerUID: 0, ownerUID: 0))
    }

    @Test func getsockoptReportsThisProcess() throws {
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { ends.forEach { close($0) } }
        let peer = try PeerCredentials.of(descriptor: ends[0])
        #expect(peer == PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid()))
    }

    @Test func getsockoptOnANonSocketFailsWithItsErrno() {
        let descriptor = open("/dev/null", O_RDONLY)
        defer { close(descriptor) }
        #expect(throws: SystemError(call: "getsockopt(SO_PEERCRED)", code: ENOTSOCK)) {
            try PeerCredentials.of(descriptor: descriptor)
        }
    }

    @Test func aPeerOfAnotherUserIsRefusedWithAResponse() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/agent.sock"
        // The owner is someone else, so this process is the stranger (no second account needed).
        let listener = try ControlListener.open(path: path, ownerUID: getuid() &+ 1)
        let served = Gate()
        let log = OutcomeLog()
        Thread.detachNewThread {
            if let outcome = listener.serveOne(timeoutMilliseconds: -1, { _ in .success() }) { log.append(outcome.description) }
            served.open()
        }
        let response = try ControlClient.send(ControlRequest(command: "status"), to: path, agent: "test-agent", start: "test-agent")
        #expect(!response.ok)
        #expect(response.error?.contains("permission denied") == true)
        await served.wait()
        #expect(log.lines == ["control: refused pid \(getpid()) of uid \(getuid()): only the agent's own user may connect"])
    }
}
