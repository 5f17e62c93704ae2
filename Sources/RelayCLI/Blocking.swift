import Dispatch
import Synchronization

/// Waits on a plain thread (an agent's start-up, its control thread — never one of the tasks'
/// threads, which the work itself needs) for async work, and returns its result.
public enum Blocking {
    /// Runs `body` on a task and blocks this thread until it has finished.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        // The task stores its result before it signals, so there always is one.
        guard let result = outcome.withLock({ $0 }) else { throw BlockingError() }
        return try result.get()
    }
}

/// The waited-for work ended without a result (which the task's order rules out).
public struct BlockingError: Error, CustomStringConvertible {
    /// What happened.
    public var description: String { "the work waited for ended without an answer" }
}
