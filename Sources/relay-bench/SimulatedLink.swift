import Glibc
import RelayTestSupport
import RelayTransport
import Synchronization

/// RelayTransport's link simulator inside relay-bench, between relay-phone (its `--peer`) and
/// the wearable's link socket, for `relay-bench bulk`: every byte between the agents crosses
/// a link of `LinkConditions` (bandwidth, latency, MTU), as it would over RFCOMM.
final class SimulatedLink: Sendable {
    /// Where relay-phone connects.
    let path: String
    /// What the link does to traffic.
    let conditions: LinkConditions
    private let serving: Task<Void, Never>

    private init(path: String, conditions: LinkConditions, serving: Task<Void, Never>) {
        self.path = path
        self.conditions = conditions
        self.serving = serving
    }

    /// Listens on `path` and forwards each connection to `upstream` under `conditions`;
    /// returns once it listens.
    static func start(path: String, upstream: String, conditions: LinkConditions) async throws -> SimulatedLink {
        let simulator = LinkSimulator(conditions: conditions, upstream: .unix(path: upstream))
        let listening = Gate()
        let failure = Mutex<String?>(nil)
        let serving = Task {
            do {
                try await simulator.run(on: .unix(path: path)) { _ in listening.open() }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            // Also when it could not listen: the wait below must end either way.
            listening.open()
        }
        await listening.wait()
        if let reason = failure.withLock({ $0 }) {
            throw BenchError("the link simulator cannot listen on \(path): \(reason); pass a shorter --directory if the path is long")
        }
        return SimulatedLink(path: path, conditions: conditions, serving: serving)
    }

    /// Stops listening (after the agents have stopped, so no connection is in progress).
    func stop() async {
        serving.cancel()
        await serving.value
        unlink(path)
    }
}
