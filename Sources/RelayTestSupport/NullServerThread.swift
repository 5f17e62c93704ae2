import Foundation
public import RelayDBus
import Synchronization

/// `DBusNullServer` on a thread of its own, for a benchmark's yardstick: started, and
/// stopped again once the run is over.
public final class NullServerThread: Sendable {
    private struct State {
        var stopped = false
        var finished = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    private init() {}

    /// Runs a server taking `name` on `bus` and answering every call with `reply` while `body`
    /// runs; throws if it cannot take the name.
    public static func serving<Result>(
        _ name: String, on bus: String, reply: [DBusValue], _ body: () async throws -> Result
    ) async throws -> Result {
        let thread = NullServerThread()
        try await withCheckedThrowingContinuation { (ready: CheckedContinuation<Void, any Error>) in
            let worker = Thread {
                defer { thread.markFinished() }
                let server: DBusNullServer
                do {
                    server = try DBusNullServer(address: bus, name: name, reply: reply)
                } catch {
                    ready.resume(throwing: error)
                    return
                }
                ready.resume()
                // A lost bus ends the run; the load sees it as well and reports it.
                try? server.serve(until: { thread.state.withLock { $0.stopped } })
            }
            worker.name = "null-server"
            worker.start()
        }
        let result: Result
        do {
            result = try await body()
        } catch {
            await thread.stop()
            throw error
        }
        await thread.stop()
        return result
    }

    private func stop() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state in
                state.stopped = true
                if !state.finished { state.waiter = waiter }
                return state.finished
            }
            if finished { waiter.resume() }
        }
    }

    private func markFinished() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}

/// Runs `body` on a new thread and returns what it returned: for blocking work (libdbus
/// calls in a loop, say) that must not hold one of the few threads tasks run on.
public func onThread<Value: Sendable>(named name: String, _ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = name
        thread.start()
    }
}
