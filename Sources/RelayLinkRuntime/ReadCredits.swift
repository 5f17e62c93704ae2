import Synchronization

/// How many batches of frames the connection's reader may hand on before the event loop has
/// handled them. Without a bound, a peer that sends faster than the owner applies would have
/// everything it sent read into memory; with one, the reader stops reading, the socket's
/// buffers fill, and the peer's writes wait, as TCP and RFCOMM flow control intend.
final class ReadCredits: Sendable {
    private struct State {
        /// Below zero after an unbounded stretch: batches taken in then are paid back first.
        var available: Int
        var waiter: CheckedContinuation<Void, Never>?
        /// Writes under way (`unboundedWhile`): no limit meanwhile.
        var writes = 0

        /// Takes a credit if one may be taken now.
        mutating func takeIfAvailable() -> Bool {
            guard available > 0 || writes > 0 && available > -ReadCredits.writingAllowance else { return false }
            available -= 1
            return true
        }
    }

    private let state: Mutex<State>
    /// How many batches may be taken in beyond the limit while a write waits: enough for two
    /// agents sending to each other at once to get through, and still a bound on what a peer
    /// that does not read can make us hold.
    static let writingAllowance = 256

    init(_ limit: Int) {
        state = Mutex(State(available: limit))
    }

    /// Takes a credit, waiting for one if none is left; returns at once, taking nothing, when
    /// the task is cancelled (the connection is over, and nothing more will be handled).
    func take() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    // Checked under the lock that `onCancel` takes: a cancellation either
                    // shows here or finds the waiter below.
                    if Task.isCancelled || state.takeIfAvailable() { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Takes a credit if one is free now, without waiting; whether it did.
    func tryTake() -> Bool {
        state.withLock { $0.takeIfAvailable() }
    }

    /// Runs `body` (a write) with the limit lifted, up to `writingAllowance` batches: two agents
    /// that each wait to write to the other before reading would otherwise both wait for ever.
    func unboundedWhile<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.writes += 1
            guard let waiter = state.waiter, state.available > -Self.writingAllowance else { return nil }
            state.waiter = nil
            state.available -= 1
            return waiter
        }
        waiter?.resume()
        defer { state.withLock { $0.writes -= 1 } }
        return try await body()
    }

    /// Returns a credit: a batch has been handled.
    func give() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter, state.available >= 0 else {
                state.available += 1
                return nil
            }
            // The credit goes straight to the reader waiting for it.
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }
}
