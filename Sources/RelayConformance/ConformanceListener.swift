public import RelayTransport

/// Where the suite listens when the implementation is the side that connects (a phone, §2):
/// each case takes the next connection that arrives.
public final class ConformanceListener: Sendable {
    private let arrivals = Arrivals<FramedConnection>()
    private let task: Task<Void, Never>

    /// Listens at `endpoint`; returns once connections are taken in.
    public init(at endpoint: TransportEndpoint) async throws {
        let arrivals = self.arrivals
        let (listening, ready) = AsyncStream<Result<Void, TransportError>>.makeStream()
        task = Task {
            do throws(TransportError) {
                try await Transport.listen(on: endpoint) { _ in ready.yield(.success(())) } accept: { connection in
                    await arrivals.deliver([connection])
                }
                await arrivals.finish(.closed)
            } catch {
                ready.yield(.failure(error))
                await arrivals.finish(.failed(error))
            }
        }
        for await outcome in listening {
            try outcome.get()
            break
        }
    }

    /// The next connection from the implementation, within `limit`.
    func next(within limit: Duration, _ section: String) async throws -> FramedConnection {
        do {
            guard let connection = try await arrivals.next(within: limit) else {
                throw ConformanceFailure(section, "the suite's listener stopped")
            }
            return connection
        } catch let timeout as ScriptTimeout {
            throw ConformanceFailure(section, "expected the implementation to connect; \(timeout)")
        }
    }

    /// The next connection if one arrives within `limit`, else `nil`: for a case where the
    /// implementation must not connect.
    func connection(within limit: Duration) async throws -> FramedConnection? {
        do {
            return try await arrivals.next(within: limit)
        } catch is ScriptTimeout {
            return nil
        }
    }

    /// Stops listening.
    public func stop() {
        task.cancel()
    }
}
