import Foundation
import RelayTestSupport
import Testing

/// The phone's do not disturb from its sources (Docs/POLICY.md), with real parts: an application
/// that inhibits notifications through dbus-python, as KDE Plasma's clients do, held for as long
/// as it stays on the bus; and `relayctl dnd`. Normal notifications then arrive silently,
/// critical ones still alert.
@Suite struct DoNotDisturbTests {
    /// An application that calls `Inhibit` and stays connected until it is stopped.
    static let inhibitor = """
        from dbus import Dictionary
        from dbus.bus import BusConnection
        from sys import argv
        from time import sleep
        bus = BusConnection(argv[1])
        server = bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
        cookie = server.Inhibit("org.example.Presenter", "Presenting", Dictionary({}, signature="sv"),
                                dbus_interface="org.freedesktop.Notifications")
        print(cookie, flush=True)
        sleep(3600)
        """

    @Test(.timeLimit(.minutes(2))) func anInhibitorSilencesAllButCriticalUntilItLeavesAndRelayctlDndDoesTheSame() async throws {
        try await Rig.withPairedAgents { rig, bus in
            let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            func inhibited() async throws -> String {
                try await runCommand(
                    "/usr/bin/gdbus",
                    ["call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                     "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.Notifications", "Inhibited"],
                    environment: environment
                ).output.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            func alerts(_ title: String) async throws -> Int? {
                _ = try await rig.waitUntilShown(title)
                return try await rig.wearableNotifications().first { $0.title == title }?.alerts
            }
            #expect(try await inhibited() == "(<false>,)")

            let presenter = try ChildProcess("/usr/bin/python3", ["-c", Self.inhibitor, bus.address])
            var lines = presenter.lines.makeAsyncIterator()
            let cookie = await lines.next()
            #expect(cookie.flatMap(UInt32.init) ?? 0 > 0, "\(String(describing: cookie))")
            #expect(try await inhibited() == "(<true>,)")
            let status = try await rig.phoneStatus()
            #expect(status["doNotDisturb"] as? String == "on (inhibited by org.example.Presenter)", "\(status)")

            _ = try await runCommand("/usr/bin/notify-send", ["Newsletter", "weekly"], environment: environment)
            _ = try await runCommand("/usr/bin/notify-send", ["-u", "critical", "Smoke alarm", "kitchen"], environment: environment)
            // Time-sensitive by Relay's hint (freedesktop's urgency has no such level): it breaks
            // through, and its category hint reaches the wearable.
            _ = try await runCommand(
                "/usr/bin/notify-send", ["-h", "string:x-relay-interruption-level:time-sensitive", "-c", "im.received", "Taxi", "outside"],
                environment: environment)
            #expect(try await alerts("Newsletter") == 0)
            #expect(try await alerts("Smoke alarm") == 1)
            #expect(try await alerts("Taxi") == 1)
            let taxi = try await rig.wearableNotifications().first { $0.title == "Taxi" }
            #expect(taxi?.level == "time-sensitive" && taxi?.category == "im.received", "\(String(describing: taxi))")
            // Each decision, and why, as the wearable recorded it.
            func why(_ title: String) async throws -> String {
                let id = try await rig.wearableNotifications().first { $0.title == title }?.id ?? 0
                return try await rig.ctl(["why", String(id), "--control-socket", rig.wearableSocket])
            }
            let newsletter = try await why("Newsletter")
            #expect(newsletter.hasSuffix("silent: the phone did not ask for an alert: do not disturb (inhibited by org.example.Presenter)"), "\(newsletter)")
            #expect(try await why("Smoke alarm").hasSuffix("alerted: critical: always alerts"))
            let history = try await rig.ctl(["history", "--app", "notify-send", "--control-socket", rig.wearableSocket]).split(separator: "\n")
            // Newest first: the taxi (time-sensitive; the wearable's own state has no do not disturb), the alarm, the newsletter.
            #expect(history.count == 3 && history.first?.hasSuffix("alerted: nothing holds it back") == true, "\(history)")
            #expect(history.contains { $0.hasSuffix("notify-send  alerted: critical: always alerts") }, "\(history)")
            // The phone has its side of each, and the wearable's reports.
            let phoneID = try await rig.phoneDelivered().first { $0.contains("Newsletter") }.flatMap { $0.split(separator: " ").first }.map(String.init) ?? "0"
            let onPhone = try await rig.ctl(["why", phoneID, "--phone", "--control-socket", rig.phoneSocket]).split(separator: "\n")
            #expect(onPhone.first?.hasSuffix("no alert asked: on the phone: mirrored without alert: do not disturb (inhibited by org.example.Presenter)") == true, "\(onPhone)")
            // For those the phone asked to alert, the wearable's report of what it did joins it.
            let alarmID = try await rig.phoneDelivered().first { $0.contains("Smoke alarm") }.flatMap { $0.split(separator: " ").first }.map(String.init) ?? "0"
            try await rig.until("the wearable's report reaches the phone's history") {
                try await rig.ctl(["why", alarmID, "--phone", "--control-socket", rig.phoneSocket]).hasSuffix("alerted: on the wearable: alerted")
            }
            let phoneHistory = try await rig.ctl(["history", "--phone", "--app", "notify-send", "--control-socket", rig.phoneSocket])
            #expect(phoneHistory.contains("alert asked: on the phone: mirrored; may alert (phone locked)"), "\(phoneHistory)")

            // The presenter quits without UnInhibit: leaving the bus ends its inhibition.
            await presenter.stop(SIGTERM)
            try await rig.until("the inhibition ends") { try await rig.phoneStatus()["doNotDisturb"] as? String == "off" }
            #expect(try await inhibited() == "(<false>,)")
            _ = try await runCommand("/usr/bin/notify-send", ["After the talk", "hello"], environment: environment)
            #expect(try await alerts("After the talk") == 1)

            // By hand, for an hour.
            let on = try await rig.ctl(["dnd", "on", "--for", "1h", "--control-socket", rig.phoneSocket])
            #expect(on.hasPrefix("do not disturb: on (turned on by hand) until "), "\(on)")
            _ = try await runCommand("/usr/bin/notify-send", ["Held", "quiet"], environment: environment)
            #expect(try await alerts("Held") == 0)
            #expect(try await rig.ctl(["dnd", "off", "--control-socket", rig.phoneSocket]) == "do not disturb: off")
            _ = try await runCommand("/usr/bin/notify-send", ["Loud", "again"], environment: environment)
            #expect(try await alerts("Loud") == 1)
        }
    }
}
