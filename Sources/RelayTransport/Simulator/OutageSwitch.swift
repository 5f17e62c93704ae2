import Synchronization

/// An outage a test begins and ends when it wants, beside the scheduled ones of `LinkConditions`:
/// while it lasts the simulator refuses connections and cuts those in progress, as when the
/// wearable walks out of range.
public final class OutageSwitch: Sendable {
    private struct State {
        var active = false
        /// Relays waiting for the next outage, woken when it begins.
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        var next = 0
    }

    private let state = Mutex(State())

    /// No outage.
    public init() {}

    /// Whether an outage is in progress.
    public var isActive: Bool { state.withLock { $0.active } }

    /// Begins an outage: connections in progress are cut, new ones refused.
    public func begin() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.active = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Ends the outage: connections are accepted again.
    public func end() {
        state.withLock { $0.active = false }
    }

    /// Returns when an outage begins (at once during one), or when the task is cancelled.
    func waitForOutage() async {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.active || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}
