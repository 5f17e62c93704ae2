import Foundation
import RelayDBus
import RelayTestSupport
import Testing

/// What the wrist can do with a notification (Docs/WEARABLE.md, "The long look"), chosen with the
/// wearable's keys, against real clients on the phone's bus.
@Suite struct WristActionsTests {
    /// The id in gdbus's answer to `Notify`: `(uint32 7,)`.
    static func notificationID(_ output: String) -> UInt32? {
        output.firstMatch(of: /uint32 (\d+)/).flatMap { UInt32($0.1) }
    }

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

    /// A freedesktop notification offering KDE's inline reply, as gdbus sends it: the wearable
    /// offers the user's canned replies (phone.toml's [replies]), and one chosen with the keys
    /// reaches the app as `NotificationReplied`.
    @Test(.timeLimit(.minutes(2))) func aCannedReplyAnswersAnInlineReplyFromTheWrist() async throws {
        try await Rig.withPairedAgents { rig, bus in
            let client = try await bus.connect()
            var replied = try await client.signals(matching: .signal(interface: "org.freedesktop.Notifications", member: "NotificationReplied"))
                .makeAsyncIterator()
            let sent = try await runCommand(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                    "--method", "org.freedesktop.Notifications.Notify", "Chat", "0", "", "Ana", "Lunch today?", "['inline-reply', 'Reply']", "{}", "0",
                ], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            let id = try #require(Self.notificationID(sent.output), "\(sent.output)")
            _ = try await rig.waitUntilShown("Ana")
            // The list, the long look, its first button (Reply), its replies: the first canned one.
            for key in ["down", "select", "select", "select"] {
                _ = try await rig.ctl(["press", key, "--control-socket", rig.wearableSocket])
            }
            #expect(try await rig.wearableStatus()["screen"] as? String == "textReply")
            _ = try await rig.ctl(["press", "down", "--control-socket", rig.wearableSocket])
            _ = try await rig.ctl(["screenshot", rig.directory + "/canned-replies.png", "--control-socket", rig.wearableSocket])
            _ = try await rig.ctl(["press", "select", "--control-socket", rig.wearableSocket])
            let signal = try #require(await next(&replied))
            #expect(signal.arguments == [.uint32(id), .string("On my way")])

            // The phone started again with other replies: the wearable hears of them at once.
            try rig.configure("phone.toml", "[replies]\ncanned = [\"Back soon\"]\nemoji = []\n")
            try await rig.killPhone()
            try await rig.startPhone()
            try await rig.waitForConvergence()
            let againCall = try ChildProcess(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                    "--method", "org.freedesktop.Notifications.Notify", "Chat", "0", "", "Ben", "Coffee?", "['inline-reply', 'Reply']", "{}", "0",
                ], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], mergingStandardError: true)
            var againLines: [String] = []
            for await line in againCall.lines { againLines.append(line) }
            let again = (status: await againCall.wait(), output: againLines.joined(separator: "\n"))
            let second = try #require(Self.notificationID(again.output), "\(again.output)")
            _ = try await rig.waitUntilShown("Ben")
            for key in ["back", "back", "back", "down", "select", "select", "select", "select"] {
                _ = try await rig.ctl(["press", key, "--control-socket", rig.wearableSocket])
            }
            let answer = try #require(await next(&replied))
            #expect(answer.arguments == [.uint32(second), .string("Back soon")])

            // Set with relayctl, they replace the configuration's at once, and after a restart.
            let set = try await rig.ctl(["replies", "set", "Call you later", "👍", "--control-socket", rig.phoneSocket])
            #expect(set == "canned replies (set with relayctl replies):\n  Call you later\n  👍", "\(set)")
            let refused = await #expect(throws: SoakFailure.self) {
                try await rig.ctl(["replies", "add", "👍", "--control-socket", rig.phoneSocket])
            }
            #expect("\(refused.map { "\($0)" } ?? "")".contains("\"👍\" is already one of the canned replies"))
            try await rig.killPhone()
            try await rig.startPhone()
            try await rig.waitForConvergence()
            let third = try #require(Self.notificationID(try await runCommand(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                    "--method", "org.freedesktop.Notifications.Notify", "Chat", "0", "", "Cleo", "Dinner?", "['inline-reply', 'Reply']", "{}", "0",
                ], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]).output))
            _ = try await rig.waitUntilShown("Cleo")
            for key in ["back", "back", "back", "down", "select", "select", "select", "select"] {
                _ = try await rig.ctl(["press", key, "--control-socket", rig.wearableSocket])
            }
            let set1 = try #require(await next(&replied))
            #expect(set1.arguments == [.uint32(third), .string("Call you later")])
            let reset = try await rig.ctl(["replies", "reset", "--control-socket", rig.phoneSocket])
            #expect(reset == "canned replies (phone.toml's [replies]):\n  Back soon", "\(reset)")
            await client.close()
        }
    }
}
