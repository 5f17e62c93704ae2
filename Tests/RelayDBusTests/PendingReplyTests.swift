import Foundation
import RelayDBus
import RelayTestSupport
import Synchronization
import Testing

/// Methods declared with `replying:`: run on the loop thread, answered from any thread through a
/// `DBusPendingReply`, with no task between.
@Suite("Replying methods", .timeLimit(.minutes(1)))
struct PendingReplyTests {
    static let path = "/org/relay/Replying"
    static let interface = "org.relay.Replying"

    /// The replies a test holds, to answer from another thread once it says so.
    final class Parked: Sendable {
        let replies = Mutex<[DBusPendingReply]>([])
        let arrived: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() { (arrived, continuation) = AsyncStream.makeStream(of: Void.self) }

        func keep(_ reply: DBusPendingReply) {
            replies.withLock { $0.append(reply) }
            continuation.yield()
        }

        func take() -> [DBusPendingReply] { replies.withLock { replies in defer { replies.removeAll() }; return replies } }
    }

    private func service(parked: Parked) -> DBusInterface {
        DBusInterface(
            Self.interface,
            methods: [
                DBusMethod("Later", inputs: [.init("text", "s")], outputs: [.init("text", "s")]) { _, reply in
                    parked.keep(reply)
                },
                DBusMethod("Now", inputs: [.init("text", "s")], outputs: [.init("text", "s")]) { call, reply in
                    reply.succeed(call.arguments)
                    // Only the first answer counts.
                    reply.succeed([.string("second")])
                    reply.fail(DBusError(.failed, "too late"))
                },
                DBusMethod("Throw", outputs: [.init("text", "s")]) { _, _ in
                    throw DBusError("org.relay.Test.Error.Refused", "not today")
                },
                DBusMethod("Drop", outputs: [.init("text", "s")]) { _, _ in },
                DBusMethod("Lie", outputs: [.init("text", "s")]) { _, reply in reply.succeed([.int32(1)]) },
            ])
    }

    private func call(_ client: DBusConnection, _ server: DBusConnection, _ method: String, _ arguments: [DBusValue] = [])
        async throws -> [DBusValue]
    {
        try await client.call(
            destination: server.uniqueName, path: Self.path, interface: Self.interface, method: method, arguments: arguments)
    }

    /// A server exporting the test service on a private bus, a client, and where the server
    /// parks the calls it holds.
    private func withParkingService(
        _ body: (_ client: DBusConnection, _ server: DBusConnection, _ parked: Parked) async throws -> Void
    ) async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            let parked = Parked()
            try server.export([service(parked: parked)], at: Self.path)
            try await body(client, server, parked)
        }
    }

    @Test func answersGivenLaterFromOtherThreadsReachTheirCallers() async throws {
        try await withParkingService { client, server, parked in
            var arrivals = parked.arrived.makeAsyncIterator()

            let first = Task { try await call(client, server, "Later", [.string("one")]) }
            let second = Task { try await call(client, server, "Later", [.string("two")]) }
            _ = await arrivals.next()
            _ = await arrivals.next()
            // The held calls block nothing: another call is answered meanwhile.
            let meanwhile = try await call(client, server, "Now", [.string("meanwhile")])
            #expect(meanwhile == [.string("meanwhile")])

            let replies = parked.take()
            #expect(replies.count == 2 && replies.allSatisfy { !$0.isAnswered })
            // Answered from a thread of its own, as a database committer does.
            let thread = Thread {
                replies[0].succeed([.string("first answer")])
                replies[1].fail(DBusError("org.relay.Test.Error.Late", "no"))
            }
            thread.start()
            // Which call got which reply depends on arrival order; each got exactly its own.
            let outcomes = [await first.result, await second.result].map { result -> String in
                switch result {
                case .success(let values): values == [.string("first answer")] ? "first answer" : "other: \(values)"
                case .failure(let error): (error as? DBusError)?.name.rawValue ?? "\(error)"
                }
            }
            #expect(outcomes.sorted() == ["first answer", "org.relay.Test.Error.Late"])
        }
    }

    @Test func eachPendingReplyAnswersItsOwnCall() async throws {
        try await withParkingService { client, server, parked in
            var arrivals = parked.arrived.makeAsyncIterator()

            let pending = Task { try await call(client, server, "Later", [.string("only")]) }
            _ = await arrivals.next()
            let reply = try #require(parked.take().first)
            DispatchQueue.global().async { reply.succeed([.string("answered elsewhere")]) }
            #expect(try await pending.value == [.string("answered elsewhere")])
            #expect(reply.isAnswered)

            let failing = Task { try await call(client, server, "Later", [.string("refused")]) }
            _ = await arrivals.next()
            let refusal = try #require(parked.take().first)
            DispatchQueue.global().async { refusal.fail(DBusError("org.relay.Test.Error.Late", "no")) }
            await #expect(performing: { _ = try await failing.value }, throws: { error in
                (error as? DBusError)?.name.rawValue == "org.relay.Test.Error.Late" && (error as? DBusError)?.message == "no"
            })
        }
    }

    @Test func aClosingConnectionAnswersTheCallsAtWorkAndRefusesNewOnes() async throws {
        try await withParkingService { client, server, parked in
            var arrivals = parked.arrived.makeAsyncIterator()
            let atWork = Task { try await call(client, server, "Later", [.string("stored")]) }
            _ = await arrivals.next()
            let closing = Task { await server.close(draining: .seconds(30)) }
            // Calls made once the close has begun are refused, not carried out.
            var refusal: DBusError?
            while refusal == nil {
                do { _ = try await call(client, server, "Now", [.string("before the close")]) } catch { refusal = error as? DBusError }
            }
            #expect(refusal?.message.contains("shutting down") == true, "\(String(describing: refusal))")
            #expect(server.isConnected, "the connection closed with a reply still owed")
            // The work done (a notification stored, say) is answered: its caller does not try again.
            let reply = try #require(parked.take().first)
            DispatchQueue.global().async { reply.succeed([.string("done")]) }
            #expect(try await atWork.value == [.string("done")])
            await closing.value
            #expect(!server.isConnected)
        }
    }

    @Test func theFirstAnswerCountsAndMistakesBecomeErrors() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try server.export([service(parked: Parked())], at: Self.path)

            #expect(try await call(client, server, "Now", [.string("first")]) == [.string("first")])
            await #expect(performing: { _ = try await call(client, server, "Throw") }, throws: { error in
                (error as? DBusError)?.name.rawValue == "org.relay.Test.Error.Refused"
            })
            // A reply dropped unanswered still answers, so the caller does not wait for ever.
            await #expect(performing: { _ = try await call(client, server, "Drop") }, throws: { error in
                (error as? DBusError)?.name == .failed && "\(error)".contains("without replying")
            })
            await #expect(performing: { _ = try await call(client, server, "Lie") }, throws: { error in
                (error as? DBusError)?.name == .failed && "\(error)".contains("instead of the declared 's'")
            })
            // The declared input type is still checked before the handler runs.
            await #expect(performing: { _ = try await call(client, server, "Now", [.int32(3)]) }, throws: { error in
                (error as? DBusError)?.name == .invalidArgs
            })
        }
    }
}
