import Foundation
import Glibc
import RelaySystem

/// relayctl's end of a control socket: one request, one response, per connection.
public enum ControlClient {
    /// Sends a request to the agent at `path` and returns its response.
    ///
    /// - Parameters:
    ///   - agent: the agent's name for messages (`relay-wearable`).
    ///   - start: how to start that agent, for the "not running" message.
    ///   - timeoutSeconds: how long to wait for the answer (pairing waits for a person).
    public static func send(
        _ request: some ControlRequest, to path: String, agent: String, start: String, timeoutSeconds: Int = 10
    ) throws(ControlError) -> ControlResponse {
        let descriptor: Int32
        do { descriptor = try UnixSocketAddress.makeSocket() } catch { throw .system(error) }
        defer { close(descriptor) }
        // Before connecting: a hung agent's full listen queue makes connect wait, and only a
        // send timeout bounds that. A screenshot of a large framebuffer takes a while; a hung
        // agent still must not hang relayctl.
        do { try UnixSocketAddress.setTimeouts(descriptor, seconds: timeoutSeconds) } catch { throw .system(error) }
        do {
            try UnixSocketAddress.connect(descriptor, to: path)
        } catch .system(let error) where error.code == ENOENT || error.code == ECONNREFUSED || error.code == ENOTDIR {
            throw .notRunning(agent: agent, path: path, start: start)
        } catch .system(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK || error.code == ETIMEDOUT {
            throw .timedOut(agent: agent, seconds: timeoutSeconds)
        } catch .system(let error) where error.code == EACCES {
            throw .accessDenied(agent: agent, path: path, group: ControlGroup.owning(ControlDirectory.parent(of: path)))
        }
        // What is said here (a reply's text, say) goes only to one of this user's processes, or
        // to a system service: root's, or the service account's.
        do {
            let listener = try PeerCredentials.of(descriptor: descriptor)
            guard trusted(listener.uid) else { throw ControlError.notOurs(path: path, uid: listener.uid) }
        } catch let error as ControlError {
            throw error
        } catch {
            throw .system(error as? SystemError ?? SystemError(call: "getsockopt(SO_PEERCRED)", code: EINVAL))
        }
        let line: Data?
        do {
            try writeRequest(descriptor, try encode(request))
            line = try LineSocket.readLine(descriptor, maximumLength: LineSocket.maximumReplyLength)
        } catch let error as SystemError where error.code == EAGAIN || error.code == EWOULDBLOCK {
            throw .timedOut(agent: agent, seconds: timeoutSeconds)
        } catch let error as SystemError {
            throw .system(error)
        } catch ControlLineError.tooLong {
            throw .malformedReply("longer than \(LineSocket.maximumReplyLength) bytes")
        } catch ControlLineError.tooSlow {
            throw .timedOut(agent: agent, seconds: timeoutSeconds)
        } catch ControlLineError.system(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK {
            throw .timedOut(agent: agent, seconds: timeoutSeconds)
        } catch ControlLineError.system(let error) {
            throw .system(error)
        } catch {
            throw .malformedReply("\(error)")
        }
        guard let line else { throw .malformedReply("the agent closed the connection without answering") }
        do {
            return try ControlJSON.decode(ControlResponse.self, from: line)
        } catch {
            throw .malformedReply(String(decoding: line.prefix(200), as: UTF8.self))
        }
    }

    /// Whether a listener running as `uid` may be told things: this user, root, or the packaged
    /// services' account (`ControlSocketPath.serviceUser`), none of which an ordinary user can become.
    static func trusted(_ uid: UInt32) -> Bool {
        uid == geteuid() || uid == 0 || Accounts.userID(ControlSocketPath.serviceUser) == uid
    }

    /// Writes the request. An agent that refuses the caller answers at once and hangs up,
    /// possibly before the request is written; its answer is still there to read.
    private static func writeRequest(_ descriptor: Int32, _ data: Data) throws(SystemError) {
        do {
            try LineSocket.writeLine(descriptor, data)
        } catch {
            guard error.code == EPIPE || error.code == ECONNRESET else { throw error }
        }
    }

    private static func encode(_ request: some ControlRequest) throws(SystemError) -> Data {
        // A request of strings always encodes; EINVAL stands in for the impossible failure.
        guard let data = try? ControlJSON.encode(request.envelope) else { throw SystemError(call: "encode(request)", code: EINVAL) }
        return data
    }
}
