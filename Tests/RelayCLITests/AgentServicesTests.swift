import Glibc
import Logging
import RelayCLI
import ServiceLifecycle
import Synchronization
import Testing

/// The agents' start-up and shutdown (`AgentServices`): the order in which services stop, a
/// blocking loop stopped through its descriptor, and errors that reach the caller unchanged.
@Suite struct AgentServicesTests {
    private static let logger = Logger(label: "AgentServicesTests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// What the services did, in order.
    private final class Record: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A loop as the agents' control and screen threads have it: `poll` on the stop descriptor.
    private static func pollUntilStopped(_ stop: StopRequest) {
        var polled = [pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)]
        while poll(&polled, 1, -1) < 0 && errno == EINTR {}
    }

    @Test func aServiceThatReturnsStopsTheOthersInTheReverseOfTheirOrder() async throws {
        let record = Record()
        let stop = try StopRequest()
        let (finishing, finish) = AsyncStream.makeStream(of: Void.self)
        let group = AgentServices.group(
            [
                AgentServices.service("first") {
                    try? await gracefulShutdown()
                    record.append("first stopped")
                },
                AgentServices.thread("loop", stop: stop) {
                    Self.pollUntilStopped(stop)
                    record.append("loop stopped")
                },
                AgentServices.service("watcher") {
                    for await _ in finishing { break }
                    record.append("watcher returned")
                },
            ], logger: Self.logger)
        finish.yield()
        try await group.run()
        #expect(record.all == ["watcher returned", "loop stopped", "first stopped"])
    }

    @Test func aGracefulShutdownStopsTheBlockingLoopThroughItsDescriptor() async throws {
        let record = Record()
        let stop = try StopRequest()
        let started = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let group = AgentServices.group(
            [
                AgentServices.thread("loop", stop: stop) {
                    started.withLock { $0?.resume(); $0 = nil }
                    Self.pollUntilStopped(stop)
                    record.append("loop stopped")
                }
            ], logger: Self.logger)
        async let running: Void = group.run()
        await withCheckedContinuation { continuation in started.withLock { $0 = continuation } }
        await group.triggerGracefulShutdown()
        try await running
        #expect(record.all == ["loop stopped"])
    }

    private struct Refused: Error, Equatable {}

    @Test func aThrowingServiceEndsTheGroupWithItsOwnError() async throws {
        let stop = try StopRequest()
        let group = AgentServices.group(
            [
                AgentServices.service("waiting") { try? await gracefulShutdown() },
                AgentServices.thread("screen", stop: stop) { throw Refused() },
            ], logger: Self.logger)
        await #expect(throws: Refused.self) { try await group.run() }
    }
}
