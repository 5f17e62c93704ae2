import Foundation
import Testing

/// Runs the built executables as a user would and reads what they print.
@Suite struct RelayCtlTests {
    struct Result {
        var status: Int32
        var output: String
    }

    /// The executables are built beside the test binary (.build/<configuration>/).
    static func binary(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func run(_ name: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = Self.binary(name)
        process.arguments = arguments
        process.currentDirectoryURL = Self.repository
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    @Test func versionAndHelpOfEveryExecutable() throws {
        for name in ["relayctl", "relay-phone", "relay-wearable"] {
            let version = try run(name, ["--version"])
            #expect(version.status == 0)
            #expect(version.output.hasPrefix("\(name) 0."))
            let help = try run(name, ["--help"])
            #expect(help.status == 0)
            #expect(help.output.contains("OVERVIEW:"))
        }
    }

    @Test func checkPrintsTheDSTShiftedFireDate() throws {
        let result = try run("relayctl", [
            "check", "--time-zone", "Europe/Berlin", "--from", "2027-03-27T12:00:00Z", "--count", "2",
            "Examples/backup.request.json",
        ])
        #expect(result.status == 0)
        #expect(result.output.contains("next: 2027-03-28T03:30:00+0200, 2027-03-29T02:30:00+0200"))
    }

    @Test func checkListsEveryProblemAndFails() throws {
        let result = try run("relayctl", ["check", "Examples/broken.request.json", "Examples/video.category.json"])
        #expect(result.status == 1)
        #expect(result.output.contains("request.identifier is empty"))
        #expect(result.output.contains("a repeating interval must be at least 60 s"))
        #expect(result.output.contains("valid category 'video-category' with 2 action(s)"))
    }

    @Test func checkExplainsUnreadableAndUnrecognisedInput() throws {
        let missing = try run("relayctl", ["check", "Examples/does-not-exist.json"])
        #expect(missing.status == 1)
        #expect(missing.output.contains("cannot read Examples/does-not-exist.json"))
        let badZone = try run("relayctl", ["check", "--time-zone", "Mars/Olympus", "Examples/backup.request.json"])
        #expect(badZone.status != 0)
        #expect(badZone.output.contains("unknown time zone 'Mars/Olympus'"))
    }

    @Test func examplesAsJSONDecodeBack() throws {
        let result = try run("relayctl", ["examples", "--json", "--time-zone", "UTC", "--from", "2027-01-01T00:00:00Z"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect((object?["categories"] as? [Any])?.count == 4)
        #expect((object?["scheduled"] as? [Any])?.count == 7)
    }

    @Test func agentsSayWhatIsMissing() throws {
        // Only the Bluetooth link is missing now; loopback runs the notification server (PhoneLoopbackTests).
        let result = try run("relay-phone", ["--transport", "rfcomm"])
        #expect(result.status != 0)
        #expect(result.output.contains("--transport loopback"))
        let wrong = try run("relay-wearable", ["--transport", "carrier-pigeon"])
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("rfcomm"))
    }
}
