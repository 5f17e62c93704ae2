import ArgumentParser
import RelayCore

/// `relay-bench`: Relay's benchmarks. They print numbers; nothing here passes or fails.
@main
struct RelayBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-bench",
        abstract: "Run Relay's benchmarks and print their numbers (build with -c release).",
        discussion: "Targets are printed next to each figure; see Docs/BENCHMARKS.md.",
        version: "relay-bench \(RelayVersion.string)",
        subcommands: [
            LinkBenchmark.self, LinkCostBenchmark.self, RenderBenchmarkCommand.self, IdleMemoryBenchmark.self,
            NotifyBenchmark.self, EndToEndBenchmark.self, PresentBenchmark.self, CatchUpBenchmark.self, BulkBenchmark.self, IdleLinkBenchmark.self, DecisionBenchmark.self,
            ReportCommand.self,
        ])
}
