import Foundation
import RelayTestSupport
import Testing

/// A phone board with no screen: nothing says whether it is locked (no logind session, no
/// screensaver), so it counts as locked and mirrors; once a source decides, only while locked,
/// and a notification kept back says why in the phone's log.
@Suite struct HeadlessPhoneTests {
    @Test(.timeLimit(.minutes(2))) func aPhoneWithNoLockSourceMirrorsAndOneUnlockedSaysWhyItDoesNot() async throws {
        try await withPrivateBus { bus in
            let rig = try await Rig.make(bus: bus)
            do {
                try await rig.startWearable()
                try await rig.startPhone()
                try await rig.pair()
                let status = try await rig.phoneStatus()
                #expect(status["lockSource"] as? String == "headless" && status["locked"] as? Int == 1, "\(status)")
                let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
                // No `relayctl lock`: the headless phone mirrors by itself.
                _ = try await runCommand("/usr/bin/notify-send", ["Doorbell", "Someone is at the door"], environment: environment)
                _ = try await rig.waitUntilShown("Doorbell")

                // A source that says "unlocked" (here the user's override) decides from now on.
                try await rig.ctl(["unlock", "--control-socket", rig.phoneSocket])
                for title in ["Kept one", "Kept two"] {
                    _ = try await runCommand("/usr/bin/notify-send", [title, "on the phone"], environment: environment)
                }
                try await rig.until("the phone has both") { try await rig.phoneDelivered().count == 3 }
                // Sent after the two, and mirrored: once it is on the wearable, they would have been too.
                try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                _ = try await runCommand("/usr/bin/notify-send", ["Locked again", "mirrored"], environment: environment)
                _ = try await rig.waitUntilShown("Locked again")
                let shown = try await rig.wearableNotifications().map(\.title)
                #expect(!shown.contains("Kept one") && !shown.contains("Kept two"), "\(shown)")
                // Why, once for the reason, not once per notification.
                let why = rig.phoneLines().filter { $0.contains("is not mirrored: the phone is unlocked") }
                #expect(why.count == 1, "\(why)")
            } catch {
                await rig.stopAll()
                throw error
            }
            await rig.stopAll()
        }
    }
}
