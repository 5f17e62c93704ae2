import Foundation
import Testing

/// Every committed fuzz input — the seed corpus and every crash ever found — runs through
/// the same entry point the fuzzer uses, built without the fuzzer.
@Suite struct FuzzRegressionTests {
    @Test(arguments: ["FuzzFrameDecoder", "FuzzHandshake", "FuzzEnvelope", "FuzzPushPayload", "FuzzConfig", "FuzzNotifyCall", "FuzzReplica", "FuzzImage", "FuzzText"])
    func committedInputsRunCleanly(target: String) throws {
        let process = Process()
        process.executableURL = RelayCtlTests.binary(target)
        process.arguments = ["Fuzz/Corpus/\(target)", "Fuzz/Regressions/\(target)"]
        process.currentDirectoryURL = RelayCtlTests.repository
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("inputs ran cleanly"))
        #expect(!output.contains(" 0 inputs"), "the corpus is empty")
    }
}
