import Synchronization

/// Things that happened on other tasks, in order, and a way to await a condition on them
/// without sleeping: a waiter is woken by the append that makes its condition true.
public final class EventLog<Element: Sendable>: Sendable {
    private struct Waiter {
        let condition: @Sendable ([Element]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let state = Mutex<(elements: [Element], waiters: [Int: Waiter], next: Int)>(([], [:], 0))

    /// An empty log.
    public init() {}

    /// Everything so far.
    public var elements: [Element] { state.withLock { $0.elements } }

    /// Appends and wakes the waiters whose condition now holds.
    public func append(_ new: [Element]) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.elements += new
            let elements = state.elements
            let done = state.waiters.filter { $0.value.condition(elements) }
            for key in done.keys { state.waiters.removeValue(forKey: key) }
            return done.values.map(\.continuation)
        }
        ready.forEach { $0.resume(returning: true) }
    }

    /// Waits until `condition` holds for the elements; `false` if `timeout` passed first.
    public func wait(timeout: Duration = .seconds(20), until condition: @escaping @Sendable ([Element]) -> Bool) async -> Bool {
        let key = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        let timer = Mutex<Task<Void, Never>?>(nil)
        defer { timer.withLock { $0?.cancel() } }
        return await withCheckedContinuation { continuation in
            let holds = state.withLock { state -> Bool in
                if condition(state.elements) { return true }
                state.waiters[key] = Waiter(condition: condition, continuation: continuation)
                return false
            }
            if holds { return continuation.resume(returning: true) }
            // Started once the waiter is registered, so a timeout can never miss it.
            timer.withLock {
                $0 = Task { [self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
                    waiter?.continuation.resume(returning: false)
                }
            }
        }
    }
}
