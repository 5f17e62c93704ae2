import Foundation

/// What arrived and was not yet taken (a connection's frames, a listener's connections),
/// filled by a task of its own: lets a script wait for the next with a deadline, which an
/// async iterator alone cannot.
actor Arrivals<Element: Sendable> {
    /// How the stream ended: cleanly, or with an error (the framing's, the socket's).
    enum End: Sendable {
        case closed
        case failed(any Error)
    }

    private var waiting: [Element] = []
    private var end: End?
    private var waiter: (id: UInt64, continuation: CheckedContinuation<Element?, any Error>)?
    private var nextWaiter: UInt64 = 0

    /// Something arrived.
    func deliver(_ batch: [Element]) {
        waiting += batch
        wakeWaiter()
    }

    /// Nothing more will arrive.
    func finish(_ how: End) {
        if end == nil { end = how }
        wakeWaiter()
    }

    /// The next arrival; `nil` once the stream ended and everything was taken. Throws
    /// `ScriptTimeout` when nothing came within `limit`, and the stream's error if it broke.
    func next(within limit: Duration) async throws -> Element? {
        if let ready = try take() { return ready }
        nextWaiter += 1
        let id = nextWaiter
        return try await withCheckedThrowingContinuation { continuation in
            waiter = (id, continuation)
            Task { [weak self] in
                try? await Task.sleep(for: limit)
                await self?.expire(id, after: limit)
            }
        }
    }

    /// `.some(element)`, `.some(nil)` at the end, or `nil` when there is nothing yet.
    private func take() throws -> Element?? {
        if !waiting.isEmpty { return .some(waiting.removeFirst()) }
        switch end {
        case nil: return nil
        case .closed: return .some(nil)
        case .failed(let error): throw error
        }
    }

    private func wakeWaiter() {
        guard let (_, continuation) = waiter else { return }
        do {
            guard let outcome = try take() else { return }
            waiter = nil
            continuation.resume(returning: outcome)
        } catch {
            waiter = nil
            continuation.resume(throwing: error)
        }
    }

    private func expire(_ id: UInt64, after limit: Duration) {
        guard let current = waiter, current.id == id else { return }
        waiter = nil
        current.continuation.resume(throwing: ScriptTimeout(limit: limit))
    }
}

/// Nothing arrived from the implementation within the time the protocol allows.
struct ScriptTimeout: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "nothing arrived within \(limit)" }
}
