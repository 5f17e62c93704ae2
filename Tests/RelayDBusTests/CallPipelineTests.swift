import Foundation
import RelayDBus
import RelayTestSupport
import Synchronization
import Testing

/// The load generator's two ends, against a real dbus-daemon: `DBusCallPipeline` keeping calls
/// in flight, and `DBusNullServer` answering them.
@Suite("Call pipeline and null server", .timeLimit(.minutes(1)))
struct CallPipelineTests {
    static let name = "org.relay.Null"
    static let path = "/org/relay/Null"

    private static func clock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    private static func pipelineRun(
        _ bus: PrivateBus, destination: String, inFlight: Int, milliseconds: Int64, patience: Int64 = 10_000_000_000
    ) async throws -> DBusCallPipeline.Outcome {
        let address = bus.address
        return try await onThread(named: "pipeline-test") {
            let pipeline = try DBusCallPipeline(
                address: address, destination: destination, path: Self.path, interface: Self.name, method: "Ping",
                arguments: [.string("ping")])
            let start = Self.clock()
            return try pipeline.run(
                inFlight: inFlight, countFrom: start, end: start + milliseconds * 1_000_000, patience: patience,
                clock: Self.clock)
        }
    }

    @Test("the null server answers with its values, and the pipeline times every answer")
    func answersAndRoundTrips() async throws {
        try await withPrivateBus { bus in
            try await NullServerThread.serving(Self.name, on: bus.address, reply: [.uint32(7)]) {
                let client = try await bus.connect()
                let answer = try await client.call(destination: Self.name, path: Self.path, interface: Self.name, method: "Anything")
                #expect(answer == [.uint32(7)])
                let outcome = try await Self.pipelineRun(bus, destination: Self.name, inFlight: 4, milliseconds: 200)
                // Four calls in flight for 200 ms on a local bus: many more than four answers.
                #expect(outcome.roundTrips.count > 4)
                #expect(outcome.roundTrips.allSatisfy { $0 > 0 && $0 < 200_000_000 })
            }
        }
    }

    @Test("an error reply ends the run with that error")
    func errorReplyThrows() async throws {
        try await withPrivateBus { bus in
            let error = await #expect(throws: DBusError.self) {
                _ = try await Self.pipelineRun(bus, destination: "org.relay.NobodyHere", inFlight: 2, milliseconds: 100)
            }
            #expect(error?.name == .serviceUnknown)
        }
    }

    @Test("a second null server cannot take a name that is held")
    func heldNameRefused() async throws {
        try await withPrivateBus { bus in
            try await NullServerThread.serving(Self.name, on: bus.address, reply: []) {
                let refusal = await #expect(throws: DBusError.self) {
                    try await NullServerThread.serving(Self.name, on: bus.address, reply: []) {}
                }
                #expect(refusal?.name == .failed)
            }
        }
    }

    /// Replies a server holds without answering.
    final class Unanswered: Sendable {
        let replies = Mutex<[DBusPendingReply]>([])
    }

    @Test("a server that stops answering ends the run with NoReply instead of hanging it")
    func silentServerRunsOutOfPatience() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            _ = try await server.requestName(Self.name)
            let unanswered = Unanswered()
            try server.export(
                [DBusInterface(Self.name, methods: [
                    DBusMethod("Ping", inputs: [.init("text", "s")]) { _, reply in unanswered.replies.withLock { $0.append(reply) } }
                ])],
                at: Self.path)
            let error = await #expect(throws: DBusError.self) {
                _ = try await Self.pipelineRun(bus, destination: Self.name, inFlight: 2, milliseconds: 100, patience: 300_000_000)
            }
            #expect(error?.name == .noReply)
            let replies = unanswered.replies.withLock { $0.count }
            #expect(replies == 2)
        }
    }
}
