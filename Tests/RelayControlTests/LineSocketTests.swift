import Foundation
import Glibc
import Testing

@testable import RelayControl

/// Reading one request line from a client.
@Suite(.timeLimit(.minutes(1))) struct LineSocketTests {
    /// A client trickling its request a byte at a time (each read within the socket's timeout)
    /// is cut off at the deadline instead of holding the agent's thread for as long as it likes.
    @Test func aRequestTricklingPastTheDeadlineIsCutOff() throws {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EIO) }
        defer { close(ends[0]) }
        let client = ends[1]
        // Never a newline; it stops after 3 s at most, closing its end, or when the reader has
        // closed its end (MSG_NOSIGNAL: EPIPE then, not a SIGPIPE that ends the test process).
        let trickle = Thread {
            for _ in 0..<60 {
                guard send(client, "a", 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
                usleep(50_000)
            }
            close(client)
        }
        trickle.start()
        let started = ContinuousClock.now
        do {
            _ = try LineSocket.readLine(ends[0], maximumLength: 1024, deadline: .now + .milliseconds(300))
            Issue.record("the trickle was read to its end")
        } catch {
            guard case .tooSlow = error else {
                Issue.record("failed otherwise: \(error)")
                return
            }
        }
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aWholeLineIsRead() throws {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EIO) }
        defer { close(ends[0]) }
        _ = write(ends[1], "{\"command\":\"status\"}\n", 21)
        close(ends[1])
        let line = try LineSocket.readLine(ends[0], maximumLength: 1024, deadline: .now + .seconds(5))
        #expect(line.map { String(decoding: $0, as: UTF8.self) } == "{\"command\":\"status\"}")
    }
}
