import Foundation
import RelayTestSupport
import Testing

/// relay-phone in monitor mode follows the do not disturb of the desktop's own server: KDE
/// Plasma's `Inhibited` and dunst's `paused`, here on python3-dbusmock's notification_daemon,
/// whose properties are set and changed through dbusmock's own interface (which emits
/// `PropertiesChanged` as Plasma and dunst do).
@Suite struct DesktopDoNotDisturbTests {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    @Test(.timeLimit(.minutes(2))) func theMonitoredDesktopsDoNotDisturbSilencesTheWearableWhileItIsOn() async throws {
        try await withPrivateBus { bus in
            try await withDBusMock(["--template", "notification_daemon"], owning: Self.name, on: bus) { daemon in
                let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
                func mock(_ method: String, _ arguments: [String]) async throws {
                    let result = try await runCommand(
                        "/usr/bin/gdbus",
                        ["call", "--session", "--dest", Self.name, "--object-path", Self.path, "--method", "org.freedesktop.DBus.Mock.\(method)"]
                            + arguments, environment: environment)
                    #expect(result.status == 0, "\(method): \(result.output)")
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
}
