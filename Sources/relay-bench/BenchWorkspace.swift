import Foundation
import RelayTestSupport

/// What the benchmarks that run the agents share: where the agents are (beside relay-bench, as
/// the build puts them), a private folder for their state, and a paired, locked pair of agents
/// with apps to post from.
enum BenchWorkspace {
    /// The folder relay-bench runs from, where relay-phone, relay-wearable and relayctl are.
    static var binaryDirectory: String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: own).deletingLastPathComponent().path
    }

    /// Runs `body` with a new folder (mode 0700) named for the benchmark under `directory` (the
    /// temporary directory by default), removed afterwards.
    static func withFolder<T>(_ name: String, under directory: String?, _ body: (String) async throws -> T) async throws -> T {
        let work = (directory ?? FileManager.default.temporaryDirectory.path) + "/relay-bench-\(name)-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: work) }
        return try await body(work)
    }
}

extension LoopbackAgents {
    /// Pairs the agents and locks the phone, as the demo does, and connects `connections` apps to
    /// the bus to post from.
    func pairedAndLocked(connections: Int, on bus: PrivateBus) async throws -> [NotifyClient] {
        try await pair()
        try await lock()
        var clients: [NotifyClient] = []
        for _ in 0..<connections { clients.append(NotifyClient(connection: try await bus.connect())) }
        return clients
    }
}

extension LoopbackAgents {
    /// Starts the agents (from beside relay-bench) with their state in `work` and a present trace,
    /// runs `body`, and stops the agents and the trace afterwards, also when something failed.
    /// `linkThrough` may put something between relay-phone and the wearable's link socket.
    static func running<T>(
        in work: String, bus: PrivateBus, linkThrough: (String) async throws -> String = { $0 },
        _ body: (LoopbackAgents, PresentTraceReader) async throws -> T
    ) async throws -> T {
        let trace = try PresentTraceReader(path: work + "/present.fifo")
        let agents: LoopbackAgents
        do {
            agents = try await start(
                binDirectory: BenchWorkspace.binaryDirectory, bus: bus.address, directory: work, trace: trace.path,
                linkThrough: linkThrough)
        } catch {
            await trace.stop()
            throw error
        }
        do {
            let result = try await body(agents, trace)
            await agents.stop()
            await trace.stop()
            return result
        } catch {
            await agents.stop()
            await trace.stop()
            throw error
        }
    }
}

extension LoopbackAgents {
    /// `running`, with relay-phone reaching the wearable through a `LinkSwitch` that relay-bench
    /// holds (`body` gets it), stopped after the agents, also when something failed.
    static func runningThroughSwitch<T>(
        in work: String, bus: PrivateBus, _ body: (LoopbackAgents, PresentTraceReader, LinkSwitch) async throws -> T
    ) async throws -> T {
        var linkSwitch: LinkSwitch?
        do {
            let result = try await running(in: work, bus: bus) { wearableLink in
                let created = try LinkSwitch(path: work + "/link-switch.sock", upstream: wearableLink)
                linkSwitch = created
                return created.path
            } _: { agents, trace in
                guard let linkSwitch else { throw BenchError("the link switch was not set up before relay-phone started") }
                return try await body(agents, trace, linkSwitch)
            }
            await linkSwitch?.stop()
            return result
        } catch {
            await linkSwitch?.stop()
            throw error
        }
    }
}
