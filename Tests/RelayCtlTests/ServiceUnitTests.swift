import Foundation
import RelayTestSupport
import Testing

/// The packaged systemd units, checked by systemd's own analyser (Docs/SERVICES.md).
@Suite struct ServiceUnitTests {
    private static let units = RelayCtlTests.repository.appendingPathComponent("packaging/systemd")

    /// `systemd-analyze security` rates the wearable's system unit at most 3.0 (0 is the most
    /// confined, 10 the least): loosening its sandbox fails here.
    @Test(.timeLimit(.minutes(1))) func theWearablesServiceIsConfined() async throws {
        let unit = Self.units.appendingPathComponent("relay-wearable.service").path
        let analyse = try ChildProcess("/usr/bin/systemd-analyze", ["security", "--offline=true", "--no-pager", unit], mergingStandardError: true)
        var lines: [String] = []
        for await line in analyse.lines { lines.append(line) }
        #expect(await analyse.wait() == 0, "\(lines.suffix(5))")
        let verdict = try #require(lines.last { $0.contains("Overall exposure level") }, "\(lines.suffix(5))")
        let figure = verdict.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect((figure ?? 10) <= 3.0, "\(verdict)")
    }

    /// What the agents read from systemd is what the units set: READY=1 needs Type=notify, and a
    /// bad configuration's 78 must not be restarted.
    @Test func theUnitsAskForWhatTheAgentsDo() throws {
        for unit in ["relay-wearable.service", "user/relay-phone.service"] {
            let text = try String(contentsOf: Self.units.appendingPathComponent(unit), encoding: .utf8)
            for line in ["Type=notify", "RestartPreventExitStatus=78", "RuntimeDirectory=relay"] {
                #expect(text.contains("\n\(line)\n"), "\(unit) lacks \(line)")
            }
        }
        let wearable = try String(contentsOf: Self.units.appendingPathComponent("relay-wearable.service"), encoding: .utf8)
        #expect(wearable.contains("ExecStart=/usr/bin/relay-wearable --control-group relay\n"))
        #expect(wearable.contains("\nUser=relay\n") && wearable.contains("\nStateDirectoryMode=0700\n"))
        // A user unit's StateDirectory= moved between systemd versions; the phone keeps its own default.
        let phone = try String(contentsOf: Self.units.appendingPathComponent("user/relay-phone.service"), encoding: .utf8)
        #expect(!phone.contains("\nStateDirectory="))
    }
}
