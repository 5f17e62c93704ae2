import Foundation
import RelayTestSupport
import Testing

/// relay-bench's loopback pair still draws what it posts: the benchmarks wait for each
/// notification's pixels, so an agent change that keeps them off the screen (the gap between
/// vibrations did, for a while) would hang every benchmark instead of failing here.
@Suite struct BenchSmokeTests {
    @Test(.timeLimit(.minutes(2))) func theBenchmarksLoopbackPairDrawsEveryNotificationItPosts() async throws {
        let result = try await runCommand(
            RelayCtlTests.binary("relay-bench").path,
            ["present", "--count", "5", "--interval-ms", "50", "--directory", FileManager.default.temporaryDirectory.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("5 notifications, one every 50 ms") && result.output.contains("; 0 not presented"), "\(result.output)")
    }
}
