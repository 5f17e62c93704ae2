import Foundation
import RelayControl
import RelaySystem
import RelayTestSupport
import Testing

/// Only the agent's own user may use its control socket.
@Suite struct PeerCredentialTests {
    @Test func theOwnerAndTheGroupsMembersAreAllowed() {
        let owner = ControlAccess(ownerUID: 1000)
        let me = PeerCredentials(pid: 1, uid: 1000, gid: 1000)
        #expect(owner.allows(me) { [] })
        #expect(!owner.allows(PeerCredentials(pid: 1, uid: 1001, gid: 1000)) { [] })
        #expect(!owner.allows(PeerCredentials(pid: 1, uid: 0, gid: 0)) { [0] })
        #expect(ControlAccess(ownerUID: 0).allows(PeerCredentials(pid: 1, uid: 0, gid: 0)) { [] })
        let grouped = ControlAccess(ownerUID: 999, group: ControlGroup(name: "relay", id: 990))
        // By the primary group, by a supplementary one, and neither.
        #expect(grouped.allows(PeerCredentials(pid: 1, uid: 1000, gid: 990)) { [] })
        #expect(grouped.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000)) { [24, 990] })
        #expect(!grouped.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000)) { [24, 27] })
        #expect(!grouped.allows(PeerCredentials(pid: 1, uid: 0, gid: 0)) { [0] })
        #expect(grouped.refusal(of: PeerCredentials(pid: 1, uid: 1000, gid: 1000)).contains("the members of group relay"))
        #expect(grouped.refusal(of: PeerCredentials(pid: 1, uid: 1000, gid: 1000)).contains("sudo usermod -aG relay "))
    }

    @Test func theKernelReportsThePeersSupplementaryGroups() throws {
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { ends.forEach { close($0) } }
        var own = [gid_t](repeating: 0, count: Int(getgroups(0, nil)))
        _ = getgroups(Int32(own.count), &own)
        #expect(Set(try PeerCredentials.supplementaryGroups(of: ends[0])) == Set(own))
    }

    @Test func aMemberOfTheGroupIsServedThroughASocketTheGroupOwns() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/run/agent.sock"
        // Owned by someone else, so only the group lets this process in: its own primary group.
        let group = ControlGroup(name: "members", id: getegid())
        let listener = try ControlListener.open(path: path, access: ControlAccess(ownerUID: getuid() &+ 1, group: group))
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660 && status.st_gid == group.id)
        #expect(lstat(directory.path + "/run", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o750 && status.st_gid == group.id)
        let served = Gate()
        let reached = OutcomeLog()
        Thread.detachNewThread {
            for _ in 0..<2 {
                _ = listener.serveOne(timeoutMilliseconds: -1) { (request: WearableRequest) in
                    reached.append(request.command)
                    return .success(["served": .int(1)])
                }
            }
            served.open()
        }
        let response = try ControlClient.send(WearableRequest.status, to: path, agent: "test-agent", start: "test-agent")
        #expect(response == .success(["served": .int(1)]))
        // A member may not have the agent write a file where it likes.
        let screenshot = try ControlClient.send(WearableRequest.screenshot(path: "/tmp/x.png"), to: path, agent: "test-agent", start: "test-agent")
        #expect(screenshot.error?.contains("only that user may ask for it") == true, "\(screenshot)")
        await served.wait()
        #expect(reached.lines == ["status"])
        listener.close()
    }

    @Test func relayctlFindsASystemServicesSocketWhenTheUserHasNone() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(ControlSocketPath.clientPath(role: "wearable", environment: environment, uid: 1000) { $0 == "/run/relay/wearable.sock" }
            == "/run/relay/wearable.sock")
        // The user's own agent wins, and with neither the user's path is named (for "not running").
        #expect(ControlSocketPath.clientPath(role: "wearable", environment: environment, uid: 1000) { _ in true }
            == "/run/user/1000/relay/wearable.sock")
        #expect(ControlSocketPath.clientPath(role: "phone", environment: environment, uid: 1000) { _ in false }
            == "/run/user/1000/relay/phone.sock")
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
        let listener = try ControlListener.open(path: path, access: ControlAccess(ownerUID: getuid() &+ 1))
        let served = Gate()
        let log = OutcomeLog()
        Thread.detachNewThread {
            if let outcome = listener.serveOne(timeoutMilliseconds: -1, { (_: TestRequest) in .success() }) { log.append(outcome.description) }
            served.open()
        }
        let response = try ControlClient.send(TestRequest("status"), to: path, agent: "test-agent", start: "test-agent")
        #expect(!response.ok)
        #expect(response.error?.contains("permission denied") == true)
        await served.wait()
        #expect(log.lines == ["control: refused pid \(getpid()) of uid \(getuid()): only the agent's own user may connect"])
    }
}
