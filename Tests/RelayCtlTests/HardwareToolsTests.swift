import Foundation
import RelayTestSupport
import Testing

/// The tools in Hardware/: the panel-mipi-dbi command files come out in the driver's format.
@Suite struct HardwareToolsTests {
    static let panels = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Hardware/panels").path

    @Test func theST7789SequenceBecomesTheDriversCommandFile() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("relay-st7789-\(UUID().uuidString).bin").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try await runCommand("/usr/bin/python3", [Self.panels + "/mipi-dbi-cmd.py", Self.panels + "/st7789-240x240.txt", output])
        #expect(run.status == 0, "\(run.output)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        // The magic, the version, then: reset, 150 ms, sleep out, 255 ms, RGB565 …
        #expect(Array(bytes.prefix(16)) == Array("MIPI DBI".utf8) + [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(Array(bytes[16..<30]) == [0x01, 0, 0x00, 1, 150, 0x11, 0, 0x00, 1, 255, 0x3A, 1, 0x55, 0x36])
        #expect(Array(bytes.suffix(5)) == [0x29, 0, 0x00, 1, 100])
    }

    @Test func aStepItCannotWriteIsNamedByItsLine() async throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("relay-bad-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: source) }
        try Data("command 0x11\ndelay 300\n".utf8).write(to: URL(fileURLWithPath: source))
        let run = try await runCommand("/bin/sh", ["-c", "python3 \"$0\" \"$1\" \"$1.bin\" 2>&1", Self.panels + "/mipi-dbi-cmd.py", source])
        #expect(run.status == 1)
        #expect(run.output == "mipi-dbi-cmd.py: \(source): line 2: a delay is 1 to 255 ms; split a longer one", "\(run.output)")
        #expect(!FileManager.default.fileExists(atPath: source + ".bin"))
    }
}
