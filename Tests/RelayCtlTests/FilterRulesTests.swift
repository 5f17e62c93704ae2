import Foundation
import RelayTestSupport
import Testing

/// The phone's filter rules with real parts (Docs/POLICY.md, "Filter rules"): a rules file
/// read on SIGHUP and on `relayctl filter reload`, notify-send's notifications dropped, kept
/// silent or alerting through do not disturb, `relayctl filter test`, and a broken file refused
/// while the rules in force stay.
@Suite struct FilterRulesEndToEndTests {
    @Test(.timeLimit(.minutes(2))) func rulesDropSilenceOrAlertThroughDoNotDisturbAndABrokenFileLeavesThemInForce() async throws {
        try await Rig.withPairedAgents { rig, bus in
            let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            let file = rig.directory + "/config/relay/filters.toml"
            try FileManager.default.createDirectory(atPath: rig.directory + "/config/relay", withIntermediateDirectories: true)
            try """
                [rule.spam]
                app = "Spammer"
                action = "drop"

                [rule.offers]
                title = "sale|offer"
                ignore_case = true
                action = "silent"

                [rule.door]
                category = "device"
                action = "always-alert"
                """.write(toFile: file, atomically: true, encoding: .utf8)
            // SIGHUP reads the file, as the packaged service's `systemctl reload` does.
            rig.signalPhone(SIGHUP)
            try await rig.until("the phone reads the rules") {
                try await rig.ctl(["filter", "list", "--control-socket", rig.phoneSocket]).contains("door: category device → always-alert")
            }
            let tested = try await rig.ctl(["filter", "test", "-a", "Shop", "Big SALE", "today only", "--control-socket", rig.phoneSocket])
            #expect(tested == "silent: filter rule \"offers\": silent\nrule: offers\non the phone: mirrored without an alert", "\(tested)")

            _ = try await rig.ctl(["dnd", "on", "--control-socket", rig.phoneSocket])
            _ = try await runCommand("/usr/bin/notify-send", ["-a", "Spammer", "You won", "a prize"], environment: environment)
            _ = try await runCommand("/usr/bin/notify-send", ["-a", "Shop", "Summer sale", "50% off"], environment: environment)
            _ = try await runCommand("/usr/bin/notify-send", ["-c", "device.added", "Doorbell", "someone is at the door"], environment: environment)
            _ = try await rig.waitUntilShown("Doorbell")
            _ = try await rig.waitUntilShown("Summer sale")
            let shown = try await rig.wearableNotifications()
            #expect(!shown.contains { $0.title == "You won" })
            #expect(shown.first { $0.title == "Summer sale" }?.alerts == 0)
            let door = try #require(shown.first { $0.title == "Doorbell" })
            #expect(door.alerts == 1)
            let why = try await rig.ctl(["why", String(door.id), "--control-socket", rig.wearableSocket])
            #expect(why.hasSuffix("alerted: filter rule \"door\": always-alert"), "\(why)")
            #expect(try await rig.phoneDelivered().contains { $0.contains("You won") }, "a dropped notification stays on the phone")

            // A mistake: refused with its place, and the three rules stay.
            try "[rule.spam]\napp = \"Spammer\"\naction = \"drop\"\ntitle = \"(\"\n".write(toFile: file, atomically: true, encoding: .utf8)
            let refused = await #expect(throws: SoakFailure.self) {
                try await rig.ctl(["filter", "reload", "--control-socket", rig.phoneSocket])
            }
            #expect("\(refused.map { "\($0)" } ?? "")".contains("filters.toml:4:1: rule.spam.title is not a pattern Relay takes"), "\(String(describing: refused))")
            let listed = try await rig.ctl(["filter", "--control-socket", rig.phoneSocket])
            #expect(listed.contains("door: category device → always-alert") && listed.contains("refused at the last reading"), "\(listed)")
        }
    }

    /// The wearable fires a scheduled request by the rule it was mirrored with, so a reload that
    /// changes the rule for one mirrors it again: a dropping rule takes it off the wearable, and
    /// without it the request comes back.
    @Test(.timeLimit(.minutes(2))) func aReloadMirrorsScheduledRequestsAgainUnderTheirNewRule() async throws {
        try await Rig.withPairedAgents { rig, bus in
            let file = rig.directory + "/config/relay/filters.toml"
            try rig.configure("filters.toml", "")
            try await rig.ctl(["schedule", "--bus", bus.address, "--app-id", "org.example.Coach", "--in", "3600", "--title", "Stretch"])
            try await rig.until("the wearable holds the schedule") { try await rig.wearableStatus()["schedules"] as? Int == 1 }

            try "[rule.no-coach]\napp = \"org.example.Coach\"\naction = \"drop\"\n".write(toFile: file, atomically: true, encoding: .utf8)
            try await rig.ctl(["filter", "reload", "--control-socket", rig.phoneSocket])
            try await rig.until("the dropped request leaves the wearable") { try await rig.wearableStatus()["schedules"] as? Int == 0 }

            try "".write(toFile: file, atomically: true, encoding: .utf8)
            try await rig.ctl(["filter", "reload", "--control-socket", rig.phoneSocket])
            try await rig.until("it comes back without the rule") { try await rig.wearableStatus()["schedules"] as? Int == 1 }
        }
    }
}
