import Foundation
import RelayTestSupport
import Testing

/// What the wrist can do with a notification (Docs/WEARABLE.md, "The long look"), chosen with the
/// wearable's keys, against real clients on the phone's bus.
@Suite struct WristActionsTests {
    /// notify-send with a `default` action (a click) waits and prints the action it hears: the
    /// long look offers "Open on phone" after the app's buttons, and choosing it is the click.
    @Test(.timeLimit(.minutes(2))) func openOnPhoneIsTheDefaultActionAndClosesTheNotification() async throws {
        try await Rig.withPairedAgents { rig, bus in
            let notifySend = try ChildProcess(
                "/usr/bin/notify-send", ["-A", "default=Open", "-A", "later=Later", "Build finished", "relay 2.1 is ready"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            _ = try await rig.waitUntilShown("Build finished")
            // The list, the long look, its first button (Later), then Open on phone.
            for key in ["down", "select", "select", "down"] {
                _ = try await rig.ctl(["press", key, "--control-socket", rig.wearableSocket])
            }
            let shot = try await rig.ctl(["screenshot", rig.directory + "/open-on-phone.png", "--control-socket", rig.wearableSocket])
            #expect(!shot.isEmpty)
            _ = try await rig.ctl(["press", "select", "--control-socket", rig.wearableSocket])
            var output: [String] = []
            for await line in notifySend.lines { output.append(line) }
            #expect(output == ["default"])
            #expect(await notifySend.wait() == 0)
            try await rig.until("the phone closed it, not resident") { try await rig.phoneDelivered().isEmpty }
            try await rig.until("and the wearable let it go") { try await rig.wearableNotifications().isEmpty }

            // Without a default action there is nothing to open: Dismiss follows the app's buttons.
            _ = try await runCommand("/usr/bin/notify-send", ["Lunch", "now"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            let key = try await rig.waitUntilShown("Lunch")
            let refused = await #expect(throws: SoakFailure.self) {
                try await rig.ctl(["respond", String(key), "default", "--control-socket", rig.wearableSocket])
            }
            #expect("\(refused.map { "\($0)" } ?? "")".contains("has no action 'default'; choose one of: dismiss"), "\(String(describing: refused))")
        }
    }
}
