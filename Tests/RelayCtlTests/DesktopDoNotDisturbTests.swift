import Foundation
import RelayTestSupport
import Testing

/// relay-phone in monitor mode follows the desktop's own do not disturb: KDE Plasma's
/// `Inhibited` and dunst's `paused`, here on python3-dbusmock's notification_daemon, whose
/// properties are set and changed through dbusmock's own interface (which emits
/// `PropertiesChanged` as Plasma and dunst do); and GNOME's `show-banners` through a dbusmock
/// Settings portal that answers `Read` and emits `SettingChanged` as xdg-desktop-portal does.
@Suite struct DesktopDoNotDisturbTests {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    /// Calls `method` on `destination`'s object `path` with gdbus on `bus`; expects success and
    /// returns gdbus's answer (`(<true>,)`).
    @discardableResult
    static func call(
        _ method: String, _ arguments: [String], on bus: PrivateBus, destination: String = name, path: String = path
    ) async throws -> String {
        let result = try await runCommand(
            "/usr/bin/gdbus", ["call", "--session", "--dest", destination, "--object-path", path, "--method", method] + arguments,
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(result.status == 0, "\(method): \(result.output)")
        return result.output
    }

    /// The mock notification server names itself GNOME Shell (`GetServerInformation`).
    static func becomeGNOMEShell(on bus: PrivateBus) async throws {
        try await call(
            "org.freedesktop.DBus.Mock.AddMethod", [name, "GetServerInformation", "", "ssss", "ret = ('gnome-shell', 'GNOME', '46.0', '1.2')"],
            on: bus)
    }

    @Test(.timeLimit(.minutes(2))) func theMonitoredDesktopsDoNotDisturbSilencesTheWearableWhileItIsOn() async throws {
        try await withPrivateBus { bus in
            try await withDBusMock(["--template", "notification_daemon"], owning: Self.name, on: bus) { daemon in
                let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
                func mock(_ method: String, _ arguments: [String]) async throws {
                    try await Self.call("org.freedesktop.DBus.Mock.\(method)", arguments, on: bus)
                }
                // dunst, paused before relay-phone starts; Plasma's property, off.
                try await mock("AddProperty", ["org.dunstproject.cmd0", "paused", "<true>"])
                try await mock("AddProperty", [Self.name, "Inhibited", "<false>"])
                let rig = try await Rig.make(bus: bus)
                do {
                    try await rig.startWearable()
                    try await rig.startPhone(mode: "monitor")
                    try await rig.pair()
                    try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                    #expect(try await rig.phoneStatus()["doNotDisturb"] as? String == "on (from dunst)")
                    try await mock("UpdateProperties", ["org.dunstproject.cmd0", "{'paused': <false>}"])
                    try await rig.until("dunst resumes") { try await rig.phoneStatus()["doNotDisturb"] as? String == "off" }

                    try await mock("UpdateProperties", [Self.name, "{'Inhibited': <true>}"])
                    try await rig.until("Plasma inhibits") { try await rig.phoneStatus()["doNotDisturb"] as? String == "on (from KDE Plasma)" }
                    _ = try await runCommand("/usr/bin/notify-send", ["Standup", "now"], environment: environment)
                    let key = try await rig.waitUntilShown("Standup")
                    #expect(try await rig.wearableNotifications().first { $0.title == "Standup" }?.alerts == 0)
                    let why = try await rig.ctl(["why", String(key), "--control-socket", rig.wearableSocket])
                    #expect(why.hasSuffix("silent: the phone did not ask for an alert: do not disturb (from KDE Plasma)"), "\(why)")

                    try await mock("UpdateProperties", [Self.name, "{'Inhibited': <false>}"])
                    try await rig.until("Plasma lets go") { try await rig.phoneStatus()["doNotDisturb"] as? String == "off" }
                    _ = try await runCommand("/usr/bin/notify-send", ["Lunch", "now"], environment: environment)
                    _ = try await rig.waitUntilShown("Lunch")
                    #expect(try await rig.wearableNotifications().first { $0.title == "Lunch" }?.alerts == 1)

                    // The desktop's server goes away while inhibiting: its do not disturb goes with it.
                    try await mock("UpdateProperties", [Self.name, "{'Inhibited': <true>}"])
                    try await rig.until("Plasma inhibits again") { try await rig.phoneStatus()["doNotDisturb"] as? String == "on (from KDE Plasma)" }
                    await daemon.stop(SIGTERM)
                    try await rig.until("the server's leaving ends it") { try await rig.phoneStatus()["doNotDisturb"] as? String == "off" }
                } catch {
                    await rig.stopAll()
                    throw error
                }
                await rig.stopAll()
            }
        }
    }

    @Test(.timeLimit(.minutes(2))) func gnomesBannersOffSilenceTheWearableThroughTheSettingsPortal() async throws {
        let portal = (name: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop")
        try await withPrivateBus { bus in
            try await withDBusMock(["--template", "notification_daemon"], owning: Self.name, on: bus) { _ in
                try await withDBusMock([portal.name, portal.path, "org.freedesktop.portal.Settings"], owning: portal.name, on: bus) {
                    settings in
                    let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
                    func mock(_ method: String, _ arguments: [String]) async throws {
                        try await Self.call(method, arguments, on: bus, destination: portal.name, path: portal.path)
                    }
                    // Version 1 of the portal: Read only, its value wrapped in one more variant.
                    try await mock(
                        "org.freedesktop.DBus.Mock.AddMethod",
                        [
                            "org.freedesktop.portal.Settings", "Read", "ss", "v",
                            "ret = dbus.Boolean(getattr(self, 'banners', True), variant_level=1) if args == ['org.gnome.desktop.notifications', 'show-banners'] else None",
                        ])
                    let emit =
                        "self.banners = args[0]; self.EmitSignal('org.freedesktop.portal.Settings', 'SettingChanged', 'ssv', ['org.gnome.desktop.notifications', 'show-banners', dbus.Boolean(args[0], variant_level=1)])"
                    try await mock("org.freedesktop.DBus.Mock.AddMethod", ["org.freedesktop.portal.Settings", "SetBanners", "b", "", emit])
                    try await mock("org.freedesktop.portal.Settings.SetBanners", ["false"])
                    // GNOME's banners count under GNOME's server only.
                    try await Self.becomeGNOMEShell(on: bus)
                    try await Rig.with(bus: bus) { rig in
                        try await rig.startWearable()
                        try await rig.startPhone(mode: "monitor")
                        try await rig.pair()
                        try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                        #expect(try await rig.phoneStatus()["doNotDisturb"] as? String == "on (from GNOME)")
                        _ = try await runCommand("/usr/bin/notify-send", ["Standup", "now"], environment: environment)
                        let key = try await rig.waitUntilShown("Standup")
                        #expect(try await rig.wearableNotifications().first { $0.title == "Standup" }?.alerts == 0)
                        let why = try await rig.ctl(["why", String(key), "--control-socket", rig.wearableSocket])
                        #expect(why.hasSuffix("silent: the phone did not ask for an alert: do not disturb (from GNOME)"), "\(why)")

                        try await mock("org.freedesktop.portal.Settings.SetBanners", ["true"])
                        try await rig.until("GNOME shows banners again") { try await rig.phoneStatus()["doNotDisturb"] as? String == "off" }
                        _ = try await runCommand("/usr/bin/notify-send", ["Lunch", "now"], environment: environment)
                        _ = try await rig.waitUntilShown("Lunch")
                        #expect(try await rig.wearableNotifications().first { $0.title == "Lunch" }?.alerts == 1)

                        // The portal goes away while banners are off: its do not disturb goes with it.
                        try await mock("org.freedesktop.portal.Settings.SetBanners", ["false"])
                        try await rig.until("GNOME hides banners") { try await rig.phoneStatus()["doNotDisturb"] as? String == "on (from GNOME)" }
                        await settings.stop(SIGTERM)
                        try await rig.until("the portal's leaving ends it") { try await rig.phoneStatus()["doNotDisturb"] as? String == "off" }
                    }
                }
            }
        }
    }

    /// `mirror.only_wearable_alerts`: while the wearable is connected, relay-phone inhibits
    /// Plasma's notifications and pauses dunst (here both on the mock, with `Inhibit` and
    /// `UnInhibit` as Plasma has them), without that counting as the user's do not disturb; when
    /// the wearable goes, both are given back, and what the user turned on meanwhile counts again.
    @Test(.timeLimit(.minutes(2))) func onlyTheWearableAlertsWhileItIsConnected() async throws {
        try await withPrivateBus { bus in
            try await withDBusMock(["--template", "notification_daemon"], owning: Self.name, on: bus) { _ in
                let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
                func mock(_ method: String, _ arguments: [String]) async throws -> String {
                    try await Self.call(method, arguments, on: bus)
                }
                func property(_ interface: String, _ name: String) async throws -> String {
                    try await mock("org.freedesktop.DBus.Properties.Get", [interface, name])
                }
                func quiet() async throws -> (inhibited: String, paused: String) {
                    (try await property(Self.name, "Inhibited"), try await property("org.dunstproject.cmd0", "paused"))
                }
                _ = try await mock("org.freedesktop.DBus.Mock.AddProperty", ["org.dunstproject.cmd0", "paused", "<false>"])
                _ = try await mock("org.freedesktop.DBus.Mock.AddProperty", [Self.name, "Inhibited", "<false>"])
                _ = try await mock(
                    "org.freedesktop.DBus.Mock.AddMethod",
                    [Self.name, "Inhibit", "ssa{sv}", "u", "self.UpdateProperties('org.freedesktop.Notifications', {'Inhibited': dbus.Boolean(True)}); ret = dbus.UInt32(41)"])
                _ = try await mock(
                    "org.freedesktop.DBus.Mock.AddMethod",
                    [Self.name, "UnInhibit", "u", "", "self.UpdateProperties('org.freedesktop.Notifications', {'Inhibited': dbus.Boolean(args[0] != 41)})"])
                try await Rig.with(bus: bus) { rig in
                    try rig.configure("phone.toml", "[mirror]\nonly_wearable_alerts = true\n")
                    try await rig.startWearable()
                    try await rig.startPhone(mode: "monitor")
                    try await rig.pair()
                    try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                    try await rig.until("the desktop is quiet while the wearable is connected") { try await quiet() == ("(<true>,)", "(<true>,)") }
                    #expect(try await rig.phoneStatus()["doNotDisturb"] as? String == "off", "the phone's own doing, not the user's")
                    _ = try await runCommand("/usr/bin/notify-send", ["Standup", "now"], environment: environment)
                    _ = try await rig.waitUntilShown("Standup")
                    #expect(try await rig.wearableNotifications().first { $0.title == "Standup" }?.alerts == 1, "the wearable alerts")

                    await rig.killWearable()
                    try await rig.until("both are given back when the wearable goes") { try await quiet() == ("(<false>,)", "(<false>,)") }
                    #expect(try await rig.phoneStatus()["doNotDisturb"] as? String == "off")
                    try await rig.startWearable()
                    try await rig.until("quiet again when it is back") { try await quiet() == ("(<true>,)", "(<true>,)") }

                    // The user pauses dunst themselves meanwhile: when the wearable goes, Plasma is
                    // given back, dunst stays as the user left it, and counts as their do not disturb.
                    _ = try await mock("org.freedesktop.DBus.Mock.UpdateProperties", ["org.dunstproject.cmd0", "{'paused': <false>}"])
                    _ = try await mock("org.freedesktop.DBus.Mock.UpdateProperties", ["org.dunstproject.cmd0", "{'paused': <true>}"])
                    await rig.killWearable()
                    try await rig.until("Plasma is given back") { try await property(Self.name, "Inhibited") == "(<false>,)" }
                    try await rig.until("the user's pause counts") { try await rig.phoneStatus()["doNotDisturb"] as? String == "on (from dunst)" }
                    #expect(try await property("org.dunstproject.cmd0", "paused") == "(<true>,)", "dunst stays as the user left it")
                }
            }
        }
    }

    /// A monitored server that restarts hands out its ids from 1 again: `relayctl why ID --phone`
    /// shows what was decided about the notification delivered under that id now, and says how
    /// many decisions about the earlier one it left out.
    @Test(.timeLimit(.minutes(2))) func whyOnThePhoneKeepsApartTwoNotificationsUnderOneMonitoredID() async throws {
        try await withPrivateBus { bus in
            let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            try await Rig.with(bus: bus) { rig in
                var first = ""
                try await withDBusMock(["--template", "notification_daemon"], owning: Self.name, on: bus) { _ in
                    try await rig.startWearable()
                    try await rig.startPhone(mode: "monitor")
                    try await rig.pair()
                    try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                    first = try await runCommand("/usr/bin/notify-send", ["-p", "Standup", "now"], environment: environment).output
                    _ = try await rig.waitUntilShown("Standup")
                }
                // A second whole second, so that the decisions' times (in seconds) differ.
                let restarted = Date().addingTimeInterval(1)
                try await rig.until("a second has passed") { Date() >= restarted }
                try await withDBusMock(["--template", "notification_daemon"], owning: Self.name, on: bus) { _ in
                    let second = try await runCommand("/usr/bin/notify-send", ["-p", "Lunch", "now"], environment: environment).output
                    #expect(second == first, "the restarted server hands out the same id")
                    _ = try await rig.waitUntilShown("Lunch")
                    let id = second.trimmingCharacters(in: .whitespacesAndNewlines)
                    try await rig.until("the phone holds the new one") { try await rig.phoneDelivered().contains { $0.contains("Lunch") } }
                    let why = try await rig.ctl(["why", id, "--phone", "--control-socket", rig.phoneSocket])
                    // Each notification's own decision, and the wearable's report of each once it comes.
                    var lines = why.split(separator: "\n").map(String.init)
                    let note = lines.removeLast()
                    #expect(
                        note.wholeMatch(of: /\(and [12] decisions? about an earlier notification with this id, before this one arrived: relayctl history --phone lists them\)/)
                            != nil, "\(why)")
                    #expect(lines.filter { $0.contains("on the phone: ") }.count == 1, "\(why)")
                    let history = try await rig.ctl(["history", "--phone", "--control-socket", rig.phoneSocket])
                    #expect(history.split(separator: "\n").filter { $0.contains("#\(id) ") && $0.contains("on the phone: ") }.count == 2, "\(history)")
                }
            }
        }
    }

    /// On GNOME (or Phosh), whose server is neither Plasma nor dunst, `mirror.only_wearable_alerts`
    /// turns the banners off with gsettings while the wearable is connected (here in a GSettings
    /// key file, under a server that calls itself gnome-shell) and back on when it goes.
    @Test(.timeLimit(.minutes(2))) func onGNOMEOnlyTheWearableAlertsWhileItIsConnected() async throws {
        try await withPrivateBus { bus in
            try await withDBusMock(["--template", "notification_daemon"], owning: Self.name, on: bus) { _ in
                try await Rig.with(bus: bus) { rig in
                    let settings = ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": rig.directory + "/config"]
                    func banners() async throws -> String {
                        try await runCommand("/usr/bin/gsettings", ["get", "org.gnome.desktop.notifications", "show-banners"], environment: settings)
                            .output.trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                    try await Self.becomeGNOMEShell(on: bus)
                    try rig.configure("phone.toml", "[mirror]\nonly_wearable_alerts = true\n")
                    #expect(try await banners() == "true")
                    try await rig.startWearable()
                    try await rig.startPhone(mode: "monitor")
                    try await rig.pair()
                    try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                    try await rig.until("GNOME's banners are off while the wearable is connected") { try await banners() == "false" }
                    #expect(try await rig.phoneStatus()["doNotDisturb"] as? String == "off", "the phone's own doing, not the user's")
                    // At an unlocked phone the user looks at its screen: the banners are back meanwhile.
                    try await rig.ctl(["unlock", "--control-socket", rig.phoneSocket])
                    try await rig.until("banners back while the phone is unlocked") { try await banners() == "true" }
                    try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                    try await rig.until("and off again once it locks") { try await banners() == "false" }
                    await rig.killWearable()
                    try await rig.until("and on again when it goes") { try await banners() == "true" }
                }
            }
        }
    }
}
