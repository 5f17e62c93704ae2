import Foundation

/// The frames a connection has delivered and not yet taken, filled by a reader task: lets a
/// script wait for the next frame with a deadline, which an async iterator alone cannot.
actor FrameInbox {
    /// How the stream ended: cleanly between frames, or with the framing's or the socket's error.
    enum End: Sendable {
        case closed
        case failed(any Error)
    }

    private var frames: [Data] = []
    private var end: End?
    private var waiter: (id: UInt64, continuation: CheckedContinuation<Data?, any Error>)?
    private var nextWaiter: UInt64 = 0

    /// Frames read from the connection.
    func deliver(_ batch: [Data]) {
        frames += batch
        wakeWaiter()
    }

    /// The connection ended.
    func finish(_ how: End) {
        if end == nil { end = how }
        wakeWaiter()
    }

    /// The next frame; `nil` once the peer closed and every frame was taken. Throws
    /// `ScriptTimeout` when nothing came within `limit`, and the stream's error if it broke.
    func next(within limit: Duration) async throws -> Data? {
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

    /// `.some(frame)`, `.some(nil)` at the end, or `nil` when there is nothing yet.
    private func take() throws -> Data?? {
        if !frames.isEmpty { return .some(frames.removeFirst()) }
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
