import Foundation
import RelayControl

extension Doctor {
    /// The agent's unit under systemd, and whether the agent answers on its control socket.
    func service<Request: ControlRequest>(_ status: Request, unit: String, user: Bool) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let scope = user ? "systemctl --user" : "sudo systemctl"
        if !FileManager.default.fileExists(atPath: "/run/systemd/system") {
            findings.append(
                .problem(
                    "services", unit, "systemd is not running here (no /run/systemd/system), so the packaged service cannot run",
                    fix: "boot the board with systemd, or start \(Request.agent) by hand"))
        } else {
            let active = Self.systemctl((user ? ["--user"] : []) + ["is-active", unit])
            if active == "active" {
                findings.append(.ok("services", unit, "active"))
            } else {
                findings.append(
                    .problem(
                        "services", unit, "\(active ?? "unknown"): not running under systemd",
                        fix: "\(scope) enable --now \(unit); its log: journalctl \(user ? "--user " : "")-u \(unit)"))
            }
        }
        let socket = ControlSocketPath.clientPath(role: Request.role, environment: environment, uid: getuid())
        do {
            let response = try ControlClient.send(status, to: socket, agent: Request.agent, start: "\(scope) start \(unit)")
            let link = response.values["link"]?.description ?? "unknown"
            findings.append(.ok("services", "\(Request.agent) control socket", "\(socket) answers; the link is \(link)"))
            if case .int(let milliseconds)? = response.values["clockOffsetMilliseconds"] { findings.append(Self.clockAgainstPhone(milliseconds)) }
        } catch {
            findings.append(.problem("services", "\(Request.agent) control socket", error.description, fix: "start it: \(scope) start \(unit)"))
        }
        return findings
    }

    /// The wearable's system clock against the phone's, as the wearable measured it at the
    /// last Hello: within 2 s it agrees.
    static func clockAgainstPhone(_ milliseconds: Int) -> DoctorFinding {
        let seconds = Double(milliseconds) / 1000
        guard abs(milliseconds) > 2000 else {
            return .ok("clock", "against the phone's", "agrees with the phone's (\(String(format: "%+.1f", seconds)) s)")
        }
        return .problem(
            "clock", "against the phone's",
            "this clock is \(String(format: "%.1f", abs(seconds))) s \(milliseconds > 0 ? "behind" : "ahead of") the phone's; relay-wearable shows the phone's time, but logs and other programs here do not",
            fix: "enable NTP (sudo timedatectl set-ntp true), or let relay-wearable set the clock: clock.set_system_clock = true in wearable.toml (needs CAP_SYS_TIME; Docs/SERVICES.md)")
    }

    /// What `systemctl ARGUMENTS` printed (its first line), or `nil` when it could not run.
    static func systemctl(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemctl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
