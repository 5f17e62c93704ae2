import Synchronization

/// A one-shot latch that tasks can await and a test can open; lets a handler park until released.
public final class Gate: Sendable {
    /// Creates a closed gate.
    public init() {}

    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Whether `open` was called.
    public var isOpen: Bool { state.withLock { $0.open } }

    /// Lets every waiter (present and future) through.
    public func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let alreadyOpen = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if alreadyOpen { continuation.resume() }
        }
    }
}
