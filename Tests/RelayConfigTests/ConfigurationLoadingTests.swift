import Foundation
import Glibc
import RelayConfig
import Testing

/// Finding and reading the file, and flags over it.
@Suite struct ConfigurationLoadingTests {
    private func temporaryFolder() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/relay-config-XXXXXX").utf8CString)
        let created = try #require(mkdtemp(&template))
        return String(cString: created)
    }

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func theFileIsFoundByFlagEnvironmentOrXDG() throws {
        let folder = try temporaryFolder()
        let environment = ["HOME": folder + "/home", "XDG_CONFIG_HOME": folder + "/xdg", "RELAY_CONFIG": "env.toml"]
        let find = { (flag: String?, environment: [String: String]) in
            ConfigurationLocation.find(role: "phone", explicitPath: flag, environment: environment, currentDirectory: folder)
        }
        #expect(find("given.toml", environment) == ConfigurationLocation(path: folder + "/given.toml", isExplicit: true))
        #expect(find(nil, environment) == ConfigurationLocation(path: folder + "/env.toml", isExplicit: true))
        var withoutVariable = environment
        withoutVariable["RELAY_CONFIG"] = nil
        #expect(find(nil, withoutVariable) == ConfigurationLocation(path: folder + "/xdg/relay/phone.toml", isExplicit: false))
        withoutVariable["XDG_CONFIG_HOME"] = "relative/ignored"
        #expect(find(nil, withoutVariable) == ConfigurationLocation(path: folder + "/home/.config/relay/phone.toml", isExplicit: false))
        // A service's ConfigurationDirectory= comes before the user's; RELAY_CONFIG before both.
        var service = withoutVariable
        service["CONFIGURATION_DIRECTORY"] = "/etc/relay:/etc/other"
        #expect(find(nil, service) == ConfigurationLocation(path: "/etc/relay/phone.toml", isExplicit: false))
        service["RELAY_CONFIG"] = "env.toml"
        #expect(find(nil, service) == ConfigurationLocation(path: folder + "/env.toml", isExplicit: true))
    }

    @Test func aMissingDefaultFileMeansDefaultsAndAMissingNamedFileIsAnError() throws {
        let folder = try temporaryFolder()
        let environment = ["HOME": folder]
        let settings = try PhoneConfiguration.load(
            configPath: nil, flags: ConfigurationFlags(), environment: environment, currentDirectory: folder)
        #expect(settings == PhoneConfiguration.defaults)
        #expect(throws: ConfigurationError.unreadable(
            path: folder + "/missing.toml", reason: "no such file; check the path given with --config or RELAY_CONFIG")
        ) {
            try PhoneConfiguration.load(configPath: "missing.toml", flags: ConfigurationFlags(), environment: environment, currentDirectory: folder)
        }
        #expect(throws: ConfigurationError.unreadable(path: folder, reason: "it is a folder; give the path of a .toml file")) {
            try PhoneConfiguration.load(configPath: folder, flags: ConfigurationFlags(), environment: environment, currentDirectory: "/")
        }
    }

    @Test func theDefaultFileIsReadAndItsErrorsNameIt() throws {
        let folder = try temporaryFolder()
        let path = folder + "/.config/relay/wearable.toml"
        try write("[display]\nblank_after_seconds = 0\n", to: path)
        let settings = try WearableConfiguration.load(
            configPath: nil, flags: ConfigurationFlags(), environment: ["HOME": folder], currentDirectory: "/")
        #expect(settings.display.blankAfterSeconds == 0)
        try write("[display]\nblank_after = 0\n", to: path)
        do {
            _ = try WearableConfiguration.load(configPath: nil, flags: ConfigurationFlags(), environment: ["HOME": folder], currentDirectory: "/")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.description == "\(path):2:1: unknown key 'display.blank_after' in wearable.toml; did you mean 'display.blank_after_seconds'?")
        }
    }

    @Test func theKeysAreNamedOrNumberedAndEachCodeMeansOneKey() throws {
        let folder = try temporaryFolder()
        let path = folder + "/wearable.toml"
        func load(_ text: String) throws -> WearableConfiguration {
            try write(text, to: path)
            return try WearableConfiguration.load(configPath: path, flags: ConfigurationFlags(), environment: [:], currentDirectory: "/")
        }
        let defaults = try load("")
        #expect(defaults.keys.up == [103] && defaults.keys.select == [28, 96, 353] && defaults.keys.back == [1, 14, 158])
        // The Waveshare HAT's joystick press and KEY1, one by name and one by number.
        let hat = try load("[keys]\nselect = [\"KEY_ENTER\", \"148\", 149]\nback = [\"BTN_0\"]\n")
        #expect(hat.keys.select == [28, 148, 149] && hat.keys.back == [256])
        let problems: [(String, String)] = [
            ("[keys]\nup = [\"KEY_UPP\"]\n", "keys.up"),
            ("[keys]\nback = [\"KEY_UP\"]\n", "KEY_UP is in both keys.up and keys.back; a key can mean only one of them"),
            ("[keys]\nselect = []\n", "keys.select has no key code; the wearable needs all four keys"),
            ("[keys]\ndown = [\"999\"]\n", "keys.down"),
        ]
        for (text, expected) in problems {
            let error = #expect(throws: ConfigurationError.self) { try load(text) }
            #expect(error?.description.contains(expected) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test func aGPIOChipVibratorNeedsItsLineAndALineItsChip() throws {
        let folder = try temporaryFolder()
        let path = folder + "/wearable.toml"
        func load(_ text: String) throws -> WearableConfiguration {
            try write(text, to: path)
            return try WearableConfiguration.load(configPath: path, flags: ConfigurationFlags(), environment: [:], currentDirectory: "/")
        }
        let line = try load("[haptics]\nvibrator = \"/dev/gpiochip0\"\nvibrator_line = 18\n")
        #expect(line.vibrator == "/dev/gpiochip0" && line.vibratorLine == 18)
        let rumble = try load("[haptics]\nvibrator = \"/dev/input/relay-vibrator\"\n")
        #expect(rumble.vibratorLine == nil)
        let problems: [(String, String)] = [
            ("[haptics]\nvibrator = \"/dev/gpiochip0\"\n", "is a GPIO chip: say which of its lines switches the motor in haptics.vibrator_line"),
            ("[haptics]\nvibrator_line = 18\n", "haptics.vibrator_line = 18 needs the GPIO chip that line is on in haptics.vibrator"),
            ("[haptics]\nvibrator = \"/dev/gpiochip0\"\nvibrator_line = 5000\n", "haptics.vibrator_line"),
        ]
        for (text, expected) in problems {
            let error = #expect(throws: ConfigurationError.self) { try load(text) }
            #expect(error?.description.contains(expected) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test func quietHoursNeedAStartAndAnEndInHoursAndMinutes() throws {
        let folder = try temporaryFolder()
        let path = folder + "/wearable.toml"
        func load(_ text: String) throws -> WearableConfiguration {
            try write(text, to: path)
            return try WearableConfiguration.load(configPath: path, flags: ConfigurationFlags(), environment: [:], currentDirectory: "/")
        }
        #expect(try load("").quietHours == nil)
        let nights = try load("[quiet_hours]\nstart = \"22:30\"\nend = \"07:00\"\nweekdays = [\"mon\", \"fri\"]\n")
        let expected = WearableConfiguration.QuietHoursSettings(start: 1350, end: 420, weekdays: [2, 6])
        #expect(nights.quietHours == expected)
        #expect(nights.minimumAlertGapSeconds == 3)
        let problems: [(String, String)] = [
            ("[quiet_hours]\nstart = \"22:00\"\n", "quiet_hours.start = \"22:00\" needs quiet_hours.end too"),
            ("[quiet_hours]\nstart = \"24:00\"\nend = \"07:00\"\n", "quiet_hours.start"),
            ("[quiet_hours]\nstart = \"7:00\"\nend = \"08:00\"\n", "quiet_hours.start"),
            ("[quiet_hours]\nweekdays = [\"monday\"]\n", "quiet_hours.weekdays"),
            ("[quiet_hours]\nstart = \"22:00\"\nend = \"07:00\"\nweekdays = []\n", "quiet_hours.weekdays is empty"),
            ("[quiet_hours]\nstart = \"+1:00\"\nend = \"07:00\"\n", "quiet_hours.start"),
            ("[haptics]\nminimum_gap_seconds = 61\n", "haptics.minimum_gap_seconds"),
        ]
        for (text, expected) in problems {
            let error = #expect(throws: ConfigurationError.self) { try load(text) }
            #expect(error?.description.contains(expected) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test func anEndlessFileIsCutOffAtTheLimit() {
        // A character device never ends; the reader must stop after the limit, not read forever.
        #expect(throws: ConfigurationError.unreadable(
            path: "/dev/zero", reason: "it is larger than 1048576 bytes, too large for a configuration file")
        ) {
            try ConfigurationFile.load(path: "/dev/zero")
        }
    }

    @Test func flagsOverrideTheFileWhichOverridesTheDefaults() throws {
        let text = """
            bus = "system"
            control_socket = "phone.sock"
            [link]
            heartbeat_seconds = 2
            """
        let file = try ConfigurationFile(text: text, path: "/etc/relay/phone.toml")
        var flags = ConfigurationFlags()
        flags.set(PhoneConfiguration.Keys.controlSocket, "run/ctl.sock")
        flags.set(PhoneConfiguration.Keys.bus, nil as String?)
        flags.set(LinkSettings.Keys.timeoutSeconds, 30)
        let values = try PhoneConfiguration.schema.values(file: file, flags: flags, currentDirectory: "/home/me")
        let settings = PhoneConfiguration(values)
        #expect(settings.controlSocket == "/home/me/run/ctl.sock", "a flag's relative path starts at the current directory")
        #expect(settings.bus == "system", "a flag not given leaves the file's value")
        #expect(settings.link.heartbeatSeconds == 2 && settings.link.timeoutSeconds == 30)
        #expect(settings.link.reconnectMaxSeconds == 60)
        #expect(values.origin(of: "control_socket") == .flag("--control-socket"))
        #expect(values.origin(of: "bus") == .file("/etc/relay/phone.toml", TOMLPosition(line: 1, column: 1)))
        #expect(values.origin(of: "link.reconnect_max_seconds") == .defaultValue)
    }

    @Test func flagsAreCheckedByTheSameRulesAndNamed() {
        var flags = ConfigurationFlags()
        flags.set(PhoneConfiguration.Keys.systemBus, "session")
        flags.set(LinkSettings.Keys.heartbeatSeconds, 0, flag: "--heartbeat-seconds")
        flags.set(LinkSettings.Keys.reconnectMinSeconds, 0)
        #expect(throws: ConfigurationError.invalid([
            ConfigProblem(origin: .flag("--system-bus"), key: "system_bus",
                          message: "system_bus is \"session\"; allowed: \"system\" or a D-Bus address (unix:path=…)"),
            ConfigProblem(origin: .flag("--heartbeat-seconds"), key: "link.heartbeat_seconds",
                          message: "link.heartbeat_seconds is 0; allowed: 1 to 60 seconds"),
            ConfigProblem(origin: .flag("the setting 'link.reconnect_min_seconds'"), key: "link.reconnect_min_seconds",
                          message: "link.reconnect_min_seconds is 0; allowed: 1 to 60 seconds"),
        ], omitted: 0)) {
            try PhoneConfiguration(file: nil, flags: flags, currentDirectory: "/")
        }
        var conflicting = ConfigurationFlags()
        conflicting.set(LinkSettings.Keys.heartbeatSeconds, 20, flag: "--heartbeat-seconds")
        do {
            _ = try PhoneConfiguration(text: "[link]\ntimeout_seconds = 30\n", path: "phone.toml", flags: conflicting)
            Issue.record("a heartbeat longer than half the timeout was accepted")
        } catch {
            #expect(error.description.hasPrefix("phone.toml:2:1: link.timeout_seconds (30) must be at least twice link.heartbeat_seconds (20)"))
        }
    }
}
