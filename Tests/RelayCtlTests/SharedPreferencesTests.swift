import Foundation
import RelayTestSupport
import Testing

/// The wishes both devices keep (Docs/POLICY.md, "Shared on both devices"), with real parts: a
/// mute chosen on the wearable's keys silences the app's next notification on both sides; do
/// not disturb changed on both while apart converges to the newest change.
@Suite struct SharedPreferencesTests {
    @Test(.timeLimit(.minutes(2))) func aMuteChosenOnTheWristSilencesTheAppOnBothSidesUntilRemoved() async throws {
        try await Rig.withPairedAgents { rig, bus in
            let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            _ = try await runCommand("/usr/bin/notify-send", ["Standup", "in 5 minutes"], environment: environment)
            _ = try await rig.waitUntilShown("Standup")
            // Down opens the list, Select the long look, Select jumps to its buttons (Clear),
            // Down twice reaches Mute…, Select opens the menu, whose first choice is an hour.
            for key in ["down", "select", "select", "down", "down", "select"] {
                _ = try await rig.ctl(["press", key, "--control-socket", rig.wearableSocket])
            }
            #expect(try await rig.wearableStatus()["screen"] as? String == "muteMenu")
            _ = try await rig.ctl(["press", "select", "--control-socket", rig.wearableSocket])
            #expect(try await rig.wearableStatus()["screen"] as? String == "longLook")

            let onWearable = try await rig.ctl(["mutes", "--wearable", "--control-socket", rig.wearableSocket])
            #expect(onWearable.hasPrefix("notify-send\tuntil "), "\(onWearable)")
            try await rig.until("the phone has the mute") {
                try await rig.ctl(["mutes", "--control-socket", rig.phoneSocket]).hasPrefix("notify-send\tuntil ")
            }

            // The next one arrives silently: the phone asks no alert, and says why.
            _ = try await runCommand("/usr/bin/notify-send", ["Lunch", "now"], environment: environment)
            _ = try await rig.waitUntilShown("Lunch")
            let lunch = try #require(try await rig.wearableNotifications().first { $0.title == "Lunch" })
            #expect(lunch.alerts == 0)
            let why = try await rig.ctl(["why", String(lunch.id), "--control-socket", rig.wearableSocket])
            #expect(why.contains("silent: the phone did not ask for an alert: muted app \"notify-send\" until "), "\(why)")

            // Removed on the phone: gone on the wearable, and the app alerts again.
            #expect(try await rig.ctl(["mutes", "remove", "notify-send", "--control-socket", rig.phoneSocket]) == "nothing is muted")
            try await rig.until("the wearable has the removal") {
                try await rig.ctl(["mutes", "--wearable", "--control-socket", rig.wearableSocket]) == "nothing is muted"
            }
            _ = try await runCommand("/usr/bin/notify-send", ["Coffee", "now"], environment: environment)
            _ = try await rig.waitUntilShown("Coffee")
            #expect(try await rig.wearableNotifications().first { $0.title == "Coffee" }?.alerts == 1)

            // A thread on the wearable is named by its key, a number: an identifier is refused.
            let byName = await #expect(throws: SoakFailure.self) {
                try await rig.ctl(["mutes", "add", "Chat", "--thread", "team", "--wearable", "--control-socket", rig.wearableSocket])
            }
            #expect("\(byName.map { "\($0)" } ?? "")".contains("a thread is named by its key, a number"), "\(String(describing: byName))")
            // A mute that would end in years is refused with what to do instead.
            let far = await #expect(throws: SoakFailure.self) {
                try await rig.ctl(["mutes", "add", "Mail", "--for", "9000h", "--control-socket", rig.phoneSocket])
            }
            #expect("\(far.map { "\($0)" } ?? "")".contains("more than a year away; mute it always instead"), "\(String(describing: far))")
        }
    }

    @Test(.timeLimit(.minutes(2))) func doNotDisturbChangedOnBothSidesWhileApartConvergesToTheNewest() async throws {
        try await Rig.withPairedAgents { rig, _ in
            func wearableDND() async throws -> String { try await rig.wearableStatus()["doNotDisturb"] as? String ?? "" }
            func phoneDND() async throws -> String { try await rig.phoneStatus()["doNotDisturb"] as? String ?? "" }
            // Shared: turned on on the phone, on on the wearable too; off on the wearable, off on both.
            _ = try await rig.ctl(["dnd", "on", "--control-socket", rig.phoneSocket])
            try await rig.until("the wearable follows the phone") { try await wearableDND() == "on (turned on by hand)" }
            _ = try await rig.ctl(["dnd", "off", "--wearable", "--control-socket", rig.wearableSocket])
            try await rig.until("the phone follows the wearable") { try await phoneDND() == "off" }

            // Apart: the phone cannot reach the wearable's link socket.
            try await rig.killPhone()
            try await rig.startPhone(peer: rig.linkSocket + ".nowhere")
            _ = try await rig.ctl(["mutes", "add", "Chat", "--wearable", "--control-socket", rig.wearableSocket])
            _ = try await rig.ctl(["dnd", "on", "--wearable", "--control-socket", rig.wearableSocket])
            // The phone's change comes later: it is the newest, and wins on both.
            try await Task.sleep(for: .milliseconds(20))
            _ = try await rig.ctl(["dnd", "on", "--for", "2h", "--control-socket", rig.phoneSocket])
            _ = try await rig.ctl(["dnd", "off", "--control-socket", rig.phoneSocket])
            #expect(try await wearableDND() == "on (turned on by hand)")
            #expect(try await phoneDND() == "off")

            try await rig.killPhone()
            try await rig.startPhone()
            try await rig.until("both sides agree on the newest") {
                let wearable = try await wearableDND()
                let phone = try await phoneDND()
                return wearable == "off" && phone == "off"
            }
            // What nobody contradicted arrives too.
            try await rig.until("the phone has the wearable's mute") {
                try await rig.ctl(["mutes", "--control-socket", rig.phoneSocket]) == "Chat\tuntil always"
            }
        }
    }

    @Test(.timeLimit(.minutes(2))) func quietHoursSetOnThePhoneHoldOnTheWearable() async throws {
        try await Rig.withPairedAgents { rig, bus in
            let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            #expect(try await rig.ctl(["quiet-hours", "--control-socket", rig.phoneSocket]) == "quiet hours: as the wearable's configuration says")
            // Equal start and end: the whole of every day.
            let set = try await rig.ctl(["quiet-hours", "set", "00:00", "00:00", "--time-zone", "Europe/Berlin", "--control-socket", rig.phoneSocket])
            #expect(set == "quiet hours: all day every day (Europe/Berlin)", "\(set)")
            try await rig.until("the wearable keeps them") {
                (try await rig.wearableStatus()["doNotDisturb"] as? String ?? "").hasPrefix("on (quiet hours) until ")
            }
            _ = try await runCommand("/usr/bin/notify-send", ["Night", "owl"], environment: environment)
            _ = try await rig.waitUntilShown("Night")
            let night = try #require(try await rig.wearableNotifications().first { $0.title == "Night" })
            #expect(night.alerts == 0)
            let why = try await rig.ctl(["why", String(night.id), "--control-socket", rig.wearableSocket])
            #expect(why.contains("silent: do not disturb (quiet hours) until "), "\(why)")
            #expect(try await rig.ctl(["quiet-hours", "off", "--control-socket", rig.phoneSocket]) == "quiet hours: off")
            try await rig.until("the wearable drops them") { try await rig.wearableStatus()["doNotDisturb"] as? String == "off" }
            let refused = await #expect(throws: SoakFailure.self) {
                try await rig.ctl(["quiet-hours", "set", "22:00", "07:00", "--weekdays", "mon,funday", "--control-socket", rig.phoneSocket])
            }
            #expect("\(refused.map { "\($0)" } ?? "")".contains("names a day that is not one of sun, mon"), "\(String(describing: refused))")
        }
    }

    @Test(.timeLimit(.minutes(2))) func theWishesOutliveAnUnpairingAndTheWearableDropsOnlyItsThreadMutes() async throws {
        try await Rig.withPairedAgents { rig, _ in
            _ = try await rig.ctl(["mutes", "add", "Chat", "--wearable", "--control-socket", rig.wearableSocket])
            _ = try await rig.ctl(["mutes", "add", "Chat", "--thread", "7", "--wearable", "--control-socket", rig.wearableSocket])
            _ = try await rig.ctl(["dnd", "on", "--wearable", "--control-socket", rig.wearableSocket])
            try await rig.until("the phone has both mutes") {
                try await rig.ctl(["mutes", "--control-socket", rig.phoneSocket]).split(separator: "\n").count == 2
            }
            _ = try await rig.ctl(["unpair", "--phone-socket", rig.phoneSocket, "--wearable-socket", rig.wearableSocket])
            try await rig.until("the wearable is unpaired") { try await rig.wearableStatus()["link"] as? String == "unpaired" }
            // Both keep the user's wishes. The wearable drops its thread mute, whose key a next
            // phone could give to another thread; the phone keeps it, its keys being its own.
            let kept = try await rig.ctl(["mutes", "--wearable", "--control-socket", rig.wearableSocket])
            #expect(kept == "Chat\tuntil always", "\(kept)")
            #expect(try await rig.wearableStatus()["doNotDisturb"] as? String == "on (turned on by hand)")
            try await rig.pair()
            // Paired again with the same phone, which sends back the thread mute it kept.
            try await rig.until("the wearable has both mutes again") {
                try await rig.ctl(["mutes", "--wearable", "--control-socket", rig.wearableSocket]).split(separator: "\n").count == 2
            }
            #expect(try await rig.wearableStatus()["doNotDisturb"] as? String == "on (turned on by hand)")
        }
    }

    /// `do_not_disturb.shared = false` in wearable.toml: the wearable's toggle is its own. The
    /// phone's do not disturb still keeps what it mirrors from alerting (it asks no alert), but
    /// does not turn the wearable's on; the wearable's keeps what the phone asks from alerting,
    /// and does not reach the phone.
    @Test(.timeLimit(.minutes(2))) func aWearableWithItsOwnDoNotDisturbNeitherFollowsNorLeadsThePhone() async throws {
        try await withPrivateBus { bus in
            let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            try await Rig.with(bus: bus) { rig in
                func wearableDND() async throws -> String { try await rig.wearableStatus()["doNotDisturb"] as? String ?? "" }
                func phoneDND() async throws -> String { try await rig.phoneStatus()["doNotDisturb"] as? String ?? "" }
                func post(_ title: String) async throws -> Rig.Shown {
                    _ = try await runCommand("/usr/bin/notify-send", [title, "now"], environment: environment)
                    let key = try await rig.waitUntilShown(title)
                    return try #require(try await rig.wearableNotifications().first { $0.id == key })
                }
                try rig.configure("wearable.toml", "[do_not_disturb]\nshared = false\n")
                try await rig.startWearable()
                try await rig.startPhone()
                try await rig.pair()
                try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                #expect(try await rig.wearableStatus()["doNotDisturbShared"] as? String == "this wearable's own")

                // The phone's: no alert asked, and the wearable's own toggle stays off.
                _ = try await rig.ctl(["dnd", "on", "--control-socket", rig.phoneSocket])
                let first = try await post("Standup")
                #expect(first.alerts == 0)
                let why = try await rig.ctl(["why", String(first.id), "--control-socket", rig.wearableSocket])
                #expect(why.hasSuffix("silent: the phone did not ask for an alert: do not disturb (turned on by hand)"), "\(why)")
                #expect(try await wearableDND() == "off")
                _ = try await rig.ctl(["dnd", "off", "--control-socket", rig.phoneSocket])

                // The wearable's: silent there, and the phone does not hear of it.
                _ = try await rig.ctl(["dnd", "on", "--wearable", "--control-socket", rig.wearableSocket])
                #expect(try await wearableDND() == "on (turned on by hand)")
                let second = try await post("Lunch")
                #expect(second.alerts == 0)
                let whyHere = try await rig.ctl(["why", String(second.id), "--control-socket", rig.wearableSocket])
                #expect(whyHere.hasSuffix("silent: do not disturb (turned on by hand)"), "\(whyHere)")
                try await rig.waitForConvergence()
                #expect(try await phoneDND() == "off")

                _ = try await rig.ctl(["dnd", "off", "--wearable", "--control-socket", rig.wearableSocket])
                #expect(try await post("Coffee").alerts == 1)
            }
        }
    }
}
