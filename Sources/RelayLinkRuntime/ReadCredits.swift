import Synchronization

/// How many batches of frames the connection's reader may hand on before the event loop has
/// handled them. Without a bound, a peer that sends faster than the owner applies would have
/// everything it sent read into memory; with one, the reader stops reading, the socket's
/// buffers fill, and the peer's writes wait, as TCP and RFCOMM flow control intend.
final class ReadCredits: Sendable {
    private struct State {
        var available: Int
        var waiter: CheckedContinuation<Void, Never>?
        var cancelled = false
    }

    private let state: Mutex<State>

    init(_ limit: Int) {
        state = Mutex(State(available: limit))
    }

    /// Takes a credit, waiting for one if none is left; returns at once when the task is
    /// cancelled (the connection is over, and nothing more will be handled).
    func take() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.cancelled { return true }
                    guard state.available == 0 else {
                        state.available -= 1
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Returns a credit: a batch has been handled.
    func give() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
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
