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
        _ request: ControlRequest, to path: String, agent: String, start: String, timeoutSeconds: Int = 10
    ) throws(ControlError) -> ControlResponse {
        let descriptor: Int32
        do { descriptor = try UnixSocketAddress.makeSocket() } catch { throw .system(error) }
        defer { close(descriptor) }
        do {
            try UnixSocketAddress.connect(descriptor, to: path)
        } catch .system(let error) where error.code == ENOENT || error.code == ECONNREFUSED || error.code == ENOTDIR {
            throw .notRunning(agent: agent, path: path, start: start)
        }
        let line: Data?
        do {
            // A screenshot of a large framebuffer takes a while; a hung agent still must not hang relayctl.
            try UnixSocketAddress.setTimeouts(descriptor, seconds: timeoutSeconds)
            try writeRequest(descriptor, try encode(request))
            line = try LineSocket.readLine(descriptor, maximumLength: LineSocket.maximumReplyLength)
        } catch let error as SystemError {
            throw .system(error)
        } catch ControlLineError.tooLong {
            throw .malformedReply("longer than \(LineSocket.maximumReplyLength) bytes")
        } catch ControlLineError.tooSlow {
            throw .malformedReply("not complete in time")
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

    /// Writes the request. An agent that refuses the caller answers at once and hangs up,
    /// possibly before the request is written; its answer is still there to read.
    private static func writeRequest(_ descriptor: Int32, _ data: Data) throws(SystemError) {
        do {
            try LineSocket.writeLine(descriptor, data)
        } catch {
            guard error.code == EPIPE || error.code == ECONNRESET else { throw error }
        }
    }

    private static func encode(_ request: ControlRequest) throws(SystemError) -> Data {
        // A request of strings always encodes; EINVAL stands in for the impossible failure.
        guard let data = try? ControlJSON.encode(request) else { throw SystemError(call: "encode(request)", code: EINVAL) }
        return data
    }
}
