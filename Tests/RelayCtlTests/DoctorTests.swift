import Foundation
import RelayBluetooth
import RelayTestSupport
import Testing

/// `relayctl doctor` on this machine, as a user runs it: what is missing, each with its fix.
@Suite struct DoctorTests {
    /// The findings of `relayctl doctor --json` with `home` as `$HOME`.
    private func doctor(_ arguments: [String], home: String) async throws -> (status: Int32, ok: Bool?, findings: [[String: Any]]) {
        let command = try ChildProcess(
            RelayCtlTests.binary("relayctl").path, ["doctor", "--json"] + arguments,
            environment: ["HOME": home, "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "XDG_RUNTIME_DIR": "", "RELAY_CONFIG": ""])
        var lines: [String] = []
        for await line in command.lines { lines.append(line) }
        let status = await command.wait()
        let object = try JSONSerialization.jsonObject(with: Data(lines.joined().utf8)) as? [String: Any]
        return (status, object?["ok"] as? Bool, object?["findings"] as? [[String: Any]] ?? [])
    }

    private func finding(_ findings: [[String: Any]], _ area: String, _ check: String) -> [String: Any]? {
        findings.first { $0["area"] as? String == area && $0["check"] as? String == check }
    }

    @Test(.timeLimit(.minutes(1))) func aBoardWithoutItsDevicesIsToldWhatIsMissingAndHowToFixIt() async throws {
        let home = "/tmp/relay-doctor-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.config/relay", withIntermediateDirectories: true)
        // A panel device that is not there, and a key "device" that is a plain file.
        _ = FileManager.default.createFile(atPath: home + "/not-a-keyboard", contents: Data("x".utf8))
        try """
            framebuffer = "/dev/fb-relay-missing"
            inputs = ["\(home)/not-a-keyboard"]
            """.write(toFile: home + "/.config/relay/wearable.toml", atomically: true, encoding: .utf8)
        let result = try await doctor(["--wearable"], home: home)
        #expect(result.status == 1 && result.ok == false)
        let panel = finding(result.findings, "framebuffer", "panel")
        #expect(panel?["status"] as? String == "problem")
        #expect((panel?["detail"] as? String)?.contains("/dev/fb-relay-missing does not exist") == true)
        #expect((panel?["fix"] as? String)?.contains("ls /dev/fb*") == true)
        let keys = finding(result.findings, "keys", home + "/not-a-keyboard")
        #expect(keys?["status"] as? String == "problem" && keys?["detail"] as? String == "not an input device")
        // Bluetooth is judged by what this kernel has: a problem with its fix, or fine.
        let kernel = finding(result.findings, "bluetooth", "kernel")
        #expect(kernel?["status"] as? String == (RFCOMMAddress.kernelSupportsBluetooth() ? "ok" : "problem"))
        if kernel?["status"] as? String == "problem" { #expect((kernel?["fix"] as? String)?.contains("modprobe bluetooth rfcomm") == true) }
        #expect(finding(result.findings, "configuration", "wearable.toml")?["status"] as? String == "ok")
        // Only the wearable's checks ran.
        #expect(finding(result.findings, "dbus", "session bus") == nil)
        #expect(result.findings.allSatisfy { $0["status"] as? String != "problem" || !(($0["fix"] as? String) ?? "").isEmpty })
    }

    /// A panel named by a driver that is not loaded, and a vibrator that is no rumble device.
    @Test(.timeLimit(.minutes(1))) func aMissingPanelDriverAndAMotorThatCannotRumbleAreNamed() async throws {
        let home = "/tmp/relay-doctor-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.config/relay", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: home + "/not-a-motor", contents: Data())
        try """
            panel = "fb_no_such_panel"

            [haptics]
            vibrator = "\(home)/not-a-motor"
            """.write(toFile: home + "/.config/relay/wearable.toml", atomically: true, encoding: .utf8)
        let result = try await doctor(["--wearable"], home: home)
        let panel = finding(result.findings, "framebuffer", "panel")
        #expect(panel?["status"] as? String == "problem")
        #expect((panel?["detail"] as? String)?.hasPrefix("no framebuffer's driver is named \"fb_no_such_panel\"") == true, "\(String(describing: panel))")
        let motor = finding(result.findings, "vibrator", home + "/not-a-motor")
        #expect(motor?["status"] as? String == "problem")
        #expect((motor?["detail"] as? String)?.contains("is not the vibrator relay-wearable can use") == true, "\(String(describing: motor))")
    }

    @Test(.timeLimit(.minutes(1))) func aConfigurationMistakeIsAProblemNamingTheFile() async throws {
        let home = "/tmp/relay-doctor-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.config/relay", withIntermediateDirectories: true)
        try "bus = \"nowhere\"\n".write(toFile: home + "/.config/relay/phone.toml", atomically: true, encoding: .utf8)
        let result = try await doctor(["--phone"], home: home)
        let configuration = finding(result.findings, "configuration", "phone.toml")
        #expect(configuration?["status"] as? String == "problem")
        #expect((configuration?["fix"] as? String)?.contains(home + "/.config/relay/phone.toml") == true)
        #expect(finding(result.findings, "framebuffer", "panel") == nil)
    }
}
