import Foundation
import RelayDisplay
import RelayTestSupport
import Testing

/// The agents' configuration files (Docs/CONFIGURATION.md) as a user meets them: settings
/// from the file, flags over the file, and a mistake that stops the agent, with its line, before
/// it opens anything.
@Suite struct ConfigFileTests {
    // MARK: relay-phone

    @Test(.timeLimit(.minutes(1))) func thePhoneRunsWithTheFilesSocketsAndState() async throws {
        try await withPrivateBus { bus in
            try await withFolder { folder in
                // Relative paths in the file are taken from the file's folder, not the current directory.
                let config = try write(folder + "/phone.toml", """
                    transport = "loopback"
                    bus = "\(bus.address)"
                    system_bus = "unix:path=\(folder)/no-system-bus"
                    control_socket = "run/phone.sock"
                    state_directory = "state"
                    peer = "unix:run/wearable-link.sock"

                    [link]
                    heartbeat_seconds = 2
                    timeout_seconds = 6
                    """)
                try FileManager.default.createDirectory(atPath: folder + "/run", withIntermediateDirectories: false)
                let phone = try ChildProcess(RelayCtlTests.binary("relay-phone").path, ["--config", config])
                var lines = phone.lines.makeAsyncIterator()
                let ready = await lines.next() ?? "nothing"
                #expect(ready.hasPrefix("ready: org.freedesktop.Notifications on \(bus.address)"), "it printed: \(ready)")
                #expect(ready.contains("control socket \(folder)/run/phone.sock,"))
                #expect(ready.contains("at unix:\(folder)/run/wearable-link.sock"))

                let status = try await relayctl(["status", "--phone", "--json", "--control-socket", folder + "/run/phone.sock"])
                #expect(status.status == 0)
                let object = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
                #expect(object?["role"] as? String == "phone")
                #expect(object?["peerEndpoint"] as? String == "unix:\(folder)/run/wearable-link.sock")
                // The keys and database went where the file said.
                #expect(try !FileManager.default.contentsOfDirectory(atPath: folder + "/state").isEmpty)
                // SIGHUP is ignored: pending once kill returns, it would end the agent before
                // it could answer the next request.
                #expect(kill(phone.pid, SIGHUP) == 0)
                let afterHangUp = try await relayctl(["status", "--phone", "--json", "--control-socket", folder + "/run/phone.sock"])
                #expect(afterHangUp.status == 0, "relay-phone did not survive SIGHUP: \(afterHangUp.output)")
                try await stop(phone)
                #expect(!FileManager.default.fileExists(atPath: folder + "/run/phone.sock"))
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aPhoneFlagOverridesTheFile() async throws {
        try await withPrivateBus { bus in
            try await withFolder { folder in
                let config = try write(folder + "/phone.toml", """
                    transport = "loopback"
                    bus = "session"
                    system_bus = "unix:path=\(folder)/no-system-bus"
                    control_socket = "file.sock"
                    state_directory = "state"
                    peer = "unix:link.sock"
                    """)
                // `--bus` and `--control-socket` win; `--peer` takes a plain path as a Unix socket.
                let phone = try ChildProcess(
                    RelayCtlTests.binary("relay-phone").path,
                    ["--config", config, "--bus", bus.address, "--control-socket", folder + "/flag.sock", "--peer", folder + "/other-link.sock"])
                var lines = phone.lines.makeAsyncIterator()
                let ready = await lines.next() ?? "nothing"
                #expect(ready.hasPrefix("ready: org.freedesktop.Notifications on \(bus.address)"), "it printed: \(ready)")
                #expect(ready.contains("control socket \(folder)/flag.sock,"))
                #expect(ready.contains("at unix:\(folder)/other-link.sock"))
                #expect(!FileManager.default.fileExists(atPath: folder + "/file.sock"))
                try await stop(phone)
            }
        }
    }

    @Test func anUnknownPhoneKeyStopsTheAgentNamingTheKeyBeforeAnythingStarts() async throws {
        try await withFolder { folder in
            let config = try write(folder + "/phone.toml", """
                transport = "loopback"
                control_socket = "phone.sock"
                [link]
                heartbeat = 5
                """)
            let result = try await runMerged("relay-phone", ["--config", config, "--bus", "unix:path=\(folder)/no-bus"])
            #expect(result.status == 78)
            #expect(result.lines.first == "\(config):4:1: unknown key 'link.heartbeat' in phone.toml; did you mean 'link.heartbeat_seconds'?")
            #expect(result.lines.last?.hasPrefix("relay-phone: not started; correct the configuration above") == true)
            #expect(!result.lines.contains { $0.hasPrefix("ready:") })
            // Stopped before the control socket: nothing was created.
            #expect(!FileManager.default.fileExists(atPath: folder + "/phone.sock"))
        }
    }

    @Test func badValuesNameTheLineOrTheFlag() async throws {
        try await withFolder { folder in
            let config = try write(folder + "/phone.toml", """
                transport = "loopback"
                [mirror]
                when_unlocked = "loud"
                """)
            let file = try await runMerged("relay-phone", ["--config", config])
            #expect(file.status == 78)
            #expect(file.lines.first == "\(config):3:1: mirror.when_unlocked is \"loud\"; allowed: \"none\" or \"silent\"")

            // A peer whose form the transport cannot parse names where it was written.
            let peer = try write(folder + "/peer.toml", "transport = \"loopback\"\npeer = \"tcp:localhost\"\n")
            let parsed = try await runMerged("relay-phone", ["--config", peer])
            #expect(parsed.status == 78)
            #expect(parsed.lines.first?.hasPrefix("\(peer):2:1: peer is \"tcp:localhost\": invalid endpoint") == true)

            // Through $RELAY_CONFIG, a flag's bad value is named by the flag.
            let wearable = try write(folder + "/wearable.toml", "transport = \"loopback\"\n")
            let flag = try await runMerged("relay-wearable", ["--width", "0"], environment: ["RELAY_CONFIG": wearable])
            #expect(flag.status == 78)
            #expect(flag.lines.first == "--width: width is 0; allowed: 1 to 4096 pixels")
        }
    }

    // MARK: relay-wearable

    @Test(.timeLimit(.minutes(1))) func theWearableTakesItsScreenFromTheFileAndFlagsOverIt() async throws {
        try await withFolder { folder in
            let config = try write(folder + "/wearable.toml", """
                transport = "loopback"
                control_socket = "wearable.sock"
                state_directory = "state"
                framebuffer = "wearable.fb"
                width = 176
                height = 144
                format = "xrgb8888"
                time_zone = "UTC"
                language = "de"

                [display]
                twenty_four_hour_clock = false
                """)
            let socket = folder + "/wearable.sock"
            // From the file alone, found through $RELAY_CONFIG.
            let first = try ChildProcess(RelayCtlTests.binary("relay-wearable").path, [], environment: ["RELAY_CONFIG": config])
            var lines = first.lines.makeAsyncIterator()
            let ready = await lines.next() ?? "nothing"
            #expect(ready.hasPrefix("ready: control socket \(socket), link socket \(folder)/wearable-link.sock"), "it printed: \(ready)")
            let status = try await statusObject(socket)
            #expect(status?["width"] as? Int == 176)
            #expect(status?["height"] as? Int == 144)
            #expect(status?["format"] as? String == "xrgb8888")
            #expect(status?["framebuffer"] as? String == folder + "/wearable.fb")
            try await stop(first)

            // The same file with flags over it: the flag's height and listen socket, the file's width.
            let second = try ChildProcess(
                RelayCtlTests.binary("relay-wearable").path,
                ["--config", config, "--height", "100", "--framebuffer", folder + "/second.fb", "--listen", "unix:" + folder + "/flag-link.sock"])
            var more = second.lines.makeAsyncIterator()
            let again = await more.next() ?? "nothing"
            #expect(again.hasPrefix("ready: control socket \(socket), link socket \(folder)/flag-link.sock"), "it printed: \(again)")
            let overridden = try await statusObject(socket)
            #expect(overridden?["width"] as? Int == 176)
            #expect(overridden?["height"] as? Int == 100)
            try await stop(second)
        }
    }

    @Test func anUnknownWearableKeyStopsTheAgentNamingTheKey() async throws {
        try await withFolder { folder in
            let config = try write(folder + "/wearable.toml", """
                transport = "loopback"
                control_socket = "wearable.sock"
                framebuffer = "wearable.fb"

                [display]
                blank_after = 5
                """)
            let result = try await runMerged("relay-wearable", ["--config", config])
            #expect(result.status == 78)
            #expect(result.lines.first == "\(config):6:1: unknown key 'display.blank_after' in wearable.toml; did you mean 'display.blank_after_seconds'?")
            #expect(!FileManager.default.fileExists(atPath: folder + "/wearable.sock"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/wearable.fb"), "stopped before the screen was opened")

            // The link socket is a Unix socket in this build; another endpoint is refused by name.
            let tcp = try write(folder + "/tcp.toml", "transport = \"loopback\"\nlisten = \"tcp:127.0.0.1:7300\"\n")
            let refused = try await runMerged("relay-wearable", ["--config", tcp])
            #expect(refused.status == 78)
            #expect(refused.lines.first?.hasPrefix("\(tcp):2:1: listen is \"tcp:127.0.0.1:7300\", but relay-wearable listens on a Unix socket") == true)
        }
    }

    /// `relayctl vibrate` tries the motor: with none configured the pattern goes to the log; a
    /// vibrator path that is no force-feedback device, or a GPIO chip that is not there, stops
    /// the agent naming what to use.
    @Test(.timeLimit(.minutes(1))) func theVibratorIsTriedWithRelayctlAndABadOneIsNamed() async throws {
        try await withFolder { folder in
            let config = try write(folder + "/wearable.toml", """
                transport = "loopback"
                control_socket = "wearable.sock"
                state_directory = "state"
                framebuffer = "wearable.fb"
                """)
            let socket = folder + "/wearable.sock"
            let agent = try ChildProcess(
                RelayCtlTests.binary("relay-wearable").path, ["--config", config], environment: ["RELAY_LOG": "debug"], mergingStandardError: true)
            let said = EventLog<String>()
            Task { for await line in agent.lines { said.append([line]) } }
            #expect(await said.wait(timeout: .seconds(30)) { $0.contains { $0.hasPrefix("ready:") } })
            let tried = try await relayctl(["vibrate", "--level", "time-sensitive", "--control-socket", socket])
            #expect(tried.status == 0)
            #expect(tried.output == "time-sensitive: 120ms on, 100ms off, 120ms on → the log (haptics.vibrator is not set)", "\(tried.output)")
            #expect(await said.wait(timeout: .seconds(10)) { $0.contains("relay-wearable: haptic: 120ms on, 100ms off, 120ms on") })
            let wrong = try await runMerged("relayctl", ["vibrate", "--level", "loud", "--control-socket", socket])
            #expect(wrong.status != 0 && wrong.lines.first == "Error: --level 'loud' is not one of: passive, active, time-sensitive, critical", "\(wrong.lines)")
            let status = try await statusObject(socket)
            #expect(status?["vibrator"] as? String == "the log (haptics.vibrator is not set)")
            try await stop(agent)

            _ = try write(folder + "/motor", "")
            let withMotor = try write(folder + "/motor.toml", """
                transport = "loopback"
                control_socket = "motor.sock"
                state_directory = "state"
                framebuffer = "wearable.fb"

                [haptics]
                vibrator = "motor"
                """)
            let refused = try await runMerged("relay-wearable", ["--config", withMotor])
            #expect(refused.status == 1)
            #expect(refused.lines.contains { $0.contains("\(folder)/motor is not the vibrator relay-wearable can use") && $0.contains("/proc/bus/input/devices") }, "\(refused.lines)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/motor.sock"))

            // A GPIO chip that is not there, through the real libgpiod.
            let withLine = try write(folder + "/line.toml", """
                transport = "loopback"
                control_socket = "line.sock"
                state_directory = "state"
                framebuffer = "wearable.fb"

                [haptics]
                vibrator = "/dev/gpiochip-relay-none"
                vibrator_line = 18
                """)
            let noChip = try await runMerged("relay-wearable", ["--config", withLine])
            #expect(noChip.status == 1)
            #expect(noChip.lines.contains { $0.contains("the vibrator's GPIO chip /dev/gpiochip-relay-none does not exist") && $0.contains("gpiodetect") }, "\(noChip.lines)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/line.sock"))
        }
    }

    /// Over Bluetooth the wearable has a panel: none configured stops it naming the framebuffers
    /// the kernel has, rather than drawing into a file; one whose driver is not there yet is
    /// waited for (an SPI panel's driver may load after the service starts), and a stop ends
    /// the wait.
    @Test(.timeLimit(.minutes(1))) func aBluetoothWearableWithoutItsPanelSaysWhichFramebuffersThereAre() async throws {
        let devices = FramebufferDevices().listing
        let unset = try await runMerged("relay-wearable", ["--transport", "rfcomm"], environment: ["RELAY_CONFIG": "/dev/null"])
        #expect(unset.status == 78)
        #expect(unset.lines.first == "relay-wearable needs its panel with transport = \"rfcomm\": set panel = \"DRIVER\" (or framebuffer = \"/dev/fbN\") in wearable.toml; the framebuffers here: \(devices)", "\(unset.lines)")
        let waiting = try ChildProcess(
            RelayCtlTests.binary("relay-wearable").path, ["--transport", "rfcomm", "--panel", "fb_no_such_panel"],
            environment: ["RELAY_CONFIG": "/dev/null"], mergingStandardError: true)
        let said = EventLog<String>()
        Task { for await line in waiting.lines { said.append([line]) } }
        #expect(await said.wait(timeout: .seconds(30)) {
            $0.contains("relay-wearable: waiting for the panel: no framebuffer's driver is named \"fb_no_such_panel\" (the framebuffers here: \(devices)); load the panel's overlay (Hardware/README.md), or name one of these drivers")
        }, "\(said.elements)")
        await waiting.stop(SIGTERM)
        #expect(await waiting.wait() == 0)
    }

    @Test func aMissingNamedFileIsAnError() async throws {
        let result = try await runMerged("relay-phone", ["--config", "/nonexistent/relay/phone.toml"])
        #expect(result.status == 78)
        #expect(result.lines.first == "cannot read the configuration file /nonexistent/relay/phone.toml: no such file; check the path given with --config or RELAY_CONFIG")
    }

    // MARK: Helpers

    /// A private folder for one test, removed afterwards.
    private func withFolder(_ body: (String) async throws -> Void) async throws {
        let folder = "/tmp/relay-config-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await body(folder)
    }

    /// Writes `text` to `path`, creating its folder; returns the path.
    private func write(_ path: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs an agent that is expected to stop by itself: its exit status and every line it
    /// wrote, standard error included.
    private func runMerged(_ name: String, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> (status: Int32, lines: [String])
    {
        let agent = try ChildProcess(RelayCtlTests.binary(name).path, arguments, environment: environment, mergingStandardError: true)
        var lines: [String] = []
        for await line in agent.lines { lines.append(line) }
        return (await agent.wait(), lines)
    }

    /// Stops an agent with SIGTERM and expects a clean exit.
    private func stop(_ agent: ChildProcess) async throws {
        kill(agent.pid, SIGTERM)
        #expect(await agent.wait() == 0)
    }

    private func statusObject(_ socket: String) async throws -> [String: Any]? {
        let status = try await relayctl(["status", "--json", "--control-socket", socket])
        #expect(status.status == 0)
        return try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
    }

    private func relayctl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await runCommand(RelayCtlTests.binary("relayctl").path, arguments)
    }
}
