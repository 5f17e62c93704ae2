import ArgumentParser
import Foundation

/// `relayctl doctor`: checks what Relay needs on this board, each problem with its fix.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what Relay needs on this board: Bluetooth, D-Bus, panel, keys, vibrator, clock, configuration, services.",
        discussion: """
            Each check prints ok, a problem with the command or setting that fixes it, or skipped \
            with why. Exits 0 only when no check found a problem. Without --phone or --wearable, \
            the checks of the boards whose package is installed run (both, when neither is).
            """)

    @Flag(help: "Only the phone board's checks (relay-phone).")
    var phone = false

    @Flag(help: "Only the wearable board's checks (relay-wearable).")
    var wearable = false

    @Flag(help: "Print the findings as one JSON object: {ok, findings: [{area, check, status, detail, fix}]}.")
    var json = false

    func run() async throws {
        let roles: Set<DoctorRole> = phone == wearable ? DoctorRole.installed : phone ? [.phone] : [.wearable]
        let findings = await Doctor(environment: ProcessInfo.processInfo.environment).run(roles)
        let healthy = !findings.contains { $0.status == .problem }
        if json {
            try JSONOutput.print(DoctorReport(ok: healthy, findings: findings))
        } else {
            for finding in findings { print(finding.text) }
            let problems = findings.filter { $0.status == .problem }.count
            print(healthy ? "relayctl doctor: no problems found" : "relayctl doctor: \(problems) problem\(problems == 1 ? "" : "s") found")
        }
        if !healthy { throw ExitCode.failure }
    }
}

/// `--json`'s object.
struct DoctorReport: Encodable {
    var ok: Bool
    var findings: [DoctorFinding]
}

/// Which board's checks run.
enum DoctorRole: Hashable {
    case phone, wearable

    /// The roles whose package is installed here (its unit file), or both when neither is (a
    /// build from source): a wearable board is not told it lacks a session bus.
    static var installed: Set<DoctorRole> {
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        let phone = exists("/usr/lib/systemd/user/relay-phone.service")
        let wearable = exists("/lib/systemd/system/relay-wearable.service") || exists("/usr/lib/systemd/system/relay-wearable.service")
        return phone == wearable ? [.phone, .wearable] : phone ? [.phone] : [.wearable]
    }
}
