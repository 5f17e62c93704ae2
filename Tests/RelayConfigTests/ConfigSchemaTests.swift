import RelayConfig
import Testing

@Suite struct ConfigSchemaTests {
    /// The problems a phone.toml with `text` has, one per line.
    private func phoneProblems(_ text: String, flags: ConfigurationFlags = ConfigurationFlags()) -> String? {
        do {
            _ = try PhoneConfiguration(text: text, path: "phone.toml", flags: flags)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func anUnknownKeyNamesTheFileAndTheClosestKey() {
        #expect(
            phoneProblems("[link]\nheartbeet = 5\n")
                == "phone.toml:2:1: unknown key 'link.heartbeet' in phone.toml; did you mean 'link.heartbeat_seconds'?")
        #expect(
            phoneProblems("heartbeat_seconds = 5\n")
                == "phone.toml:1:1: unknown key 'heartbeat_seconds' in phone.toml; did you mean 'link.heartbeat_seconds'?",
            "a key written outside its section is found by its name")
        #expect(
            phoneProblems("control-socket = \"/run/x.sock\"\n")
                == "phone.toml:1:1: unknown key 'control-socket' in phone.toml; did you mean 'control_socket'?",
            "a flag's spelling finds its key")
        #expect(
            phoneProblems("[links]\n")
                == "phone.toml:1:2: unknown key 'links' in phone.toml; did you mean 'link'?")
        #expect(
            phoneProblems("link.timeout = 20\n")
                == "phone.toml:1:6: unknown key 'link.timeout' in phone.toml; did you mean 'link.timeout_seconds'?")
        #expect(
            phoneProblems("colour = \"blue\"\n")
                == "phone.toml:1:1: unknown key 'colour' in phone.toml; phone.toml's keys are listed in Docs/CONFIGURATION.md")
        #expect(
            phoneProblems("\"link.heartbeat_seconds\" = 5\n")?.hasPrefix(
                "phone.toml:1:1: unknown key '\"link.heartbeat_seconds\"' in phone.toml") == true,
            "a quoted key with a dot is not the dotted key")
    }

    @Test func wrongTypesAndValuesNameTheKeyTheValueAndWhatIsAllowed() {
        let text = """
            transport = "bluetooth"
            bus = "nowhere"
            device_name = "two\\nlines"
            language = "english please"
            peer = "ftp://wearable"
            [link]
            heartbeat_seconds = "5"
            timeout_seconds = 0
            reconnect_max_seconds = 2.5
            [mirror]
            when_unlocked = "loud"
            show_previews = true
            """
        let expected = [
            "phone.toml:1:1: transport is \"bluetooth\"; allowed: \"rfcomm\" or \"loopback\"",
            "phone.toml:2:1: bus is \"nowhere\"; allowed: \"session\", \"system\" or a D-Bus address (unix:path=…)",
            "phone.toml:3:1: device_name is \"two\\nlines\"; allowed: text of up to 64 characters",
            "phone.toml:4:1: language is \"english please\"; allowed: a language tag such as \"en\" or \"pt-BR\"",
            "phone.toml:5:1: peer is \"ftp://wearable\"; allowed: unix:PATH, tcp:HOST:PORT or rfcomm:ADDRESS/CHANNEL",
            "phone.toml:7:1: link.heartbeat_seconds must be an integer (1 to 60 seconds), not a string (\"5\")",
            "phone.toml:8:1: link.timeout_seconds is 0; allowed: 3 to 300 seconds",
            "phone.toml:9:1: link.reconnect_max_seconds must be an integer (1 to 3600 seconds), not a float (2.5)",
            "phone.toml:11:1: mirror.when_unlocked is \"loud\"; allowed: \"none\" or \"silent\"",
            "phone.toml:12:1: mirror.show_previews must be a string (\"always\", \"when_unlocked\" or \"never\"), not a boolean (true)",
        ]
        #expect(phoneProblems(text) == expected.joined(separator: "\n"), "every problem is reported, in file order")
    }

    @Test func aSectionMustBeATable() {
        #expect(
            phoneProblems("link = 5\n")
                == "phone.toml:1:1: 'link' is a section and must be a table (a [link] header with its keys below it), not an integer")
        #expect((try? PhoneConfiguration(text: "link = { heartbeat_seconds = 7 }", path: "p.toml"))?.link.heartbeatSeconds == 7)
        #expect((try? PhoneConfiguration(text: "link.heartbeat_seconds = 6", path: "p.toml"))?.link.heartbeatSeconds == 6)
    }

    @Test func rulesBetweenKeysAreCheckedAfterTheValues() {
        #expect(
            phoneProblems("[link]\nheartbeat_seconds = 10\ntimeout_seconds = 15\n")
                == "phone.toml:3:1: link.timeout_seconds (15) must be at least twice link.heartbeat_seconds (10), "
                + "or one late heartbeat would drop the link")
        #expect(
            phoneProblems("[link]\nreconnect_min_seconds = 30\nreconnect_max_seconds = 10\n")
                == "phone.toml:2:1: link.reconnect_min_seconds (30) must not exceed link.reconnect_max_seconds (10)")
    }

    @Test func wearableValuesAreCheckedToo() throws {
        let settings = try WearableConfiguration(
            text: """
                transport = "loopback"
                width = 320
                format = "xrgb8888"
                inputs = ["/dev/input/event0", "keys/event1"]
                time_zone = "Europe/Berlin"
                framebuffer = "./screen.fb"
                listen = "unix:link.sock"
                [display]
                twenty_four_hour_clock = false
                """,
            path: "/etc/relay/wearable.toml")
        #expect(settings.transport == .loopback)
        #expect(settings.width == 320 && settings.height == 240)
        #expect(settings.format == .xrgb8888)
        #expect(settings.inputs == ["/dev/input/event0", "/etc/relay/keys/event1"], "relative paths start at the file's folder")
        #expect(settings.framebuffer == "/etc/relay/screen.fb")
        #expect(settings.listen == "unix:/etc/relay/link.sock")
        #expect(settings.timeZone == "Europe/Berlin")
        #expect(settings.display.twentyFourHourClock == false)
        #expect(settings.controlSocket == nil, "an empty default stays the agent's default")

        #expect(throws: ConfigurationError.self) { try WearableConfiguration(text: "time_zone = \"Mars/Olympus\"", path: "w.toml") }
        #expect(throws: ConfigurationError.self) { try WearableConfiguration(text: "width = 0", path: "w.toml") }
        #expect(throws: ConfigurationError.self) { try WearableConfiguration(text: "inputs = [\"\"]", path: "w.toml") }
        #expect(throws: ConfigurationError.self) { try WearableConfiguration(text: "inputs = [1]", path: "w.toml") }
        #expect(throws: ConfigurationError.self) { try WearableConfiguration(text: "inputs = \"/dev/input/event0\"", path: "w.toml") }
    }

    @Test func aSyntaxErrorNamesTheFile() {
        #expect(phoneProblems("[link]\nheartbeat_seconds 5\n") == "phone.toml:2:19: expected '=' after the key 'heartbeat_seconds', found '5'")
    }

    @Test func manyProblemsAreCappedWithACount() {
        let text = (0..<150).map { "unknown_\($0) = 1" }.joined(separator: "\n")
        guard let report = phoneProblems(text) else { Issue.record("unknown keys were accepted"); return }
        let lines = report.split(separator: "\n")
        #expect(lines.count == 101)
        #expect(lines.last == "… and 50 more problems")
    }
}
