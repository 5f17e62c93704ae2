import Foundation
import RelayDBus
import RelayTestSupport
import Testing

/// Both agents with relay-phone in monitor mode beside python3-dbusmock's notification_daemon:
/// what the wearable's user does reaches the server that owns the notification, not relay-phone's
/// own signals.
@Suite struct MonitorWearableTests {
    static let interface = "org.freedesktop.Notifications"

    @Test(.timeLimit(.minutes(1))) func whatThePhoneDeliveredAsTheServerIsDroppedWhenItStartsAsAMonitor() async throws {
        try await withPrivateBus { bus in
            let rig = try await Rig.make(bus: bus)
            do {
                try await rig.startPhone()
                let sent = try await runCommand(
                    "/usr/bin/notify-send", ["-p", "-t", "2000", "Earlier", "As the server"],
                    environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
                #expect(sent.status == 0)
                #expect(try await rig.phoneDelivered().contains { $0.contains("Earlier") })
                try await rig.killPhone()
                try await withDBusMock(["--template", "notification_daemon"], owning: Self.interface, on: bus) { _ in
                    try await rig.startPhone(mode: "monitor")
                    #expect(try await rig.phoneDelivered().isEmpty, "another server's ids now")
                }
            } catch {
                await rig.stopAll()
                throw error
            }
            await rig.stopAll()
        }
    }

    @Test(.timeLimit(.minutes(1))) func aDismissalOnTheWearableClosesTheNotificationAtTheServerThatOwnsIt() async throws {
        try await withPrivateBus { bus in
            try await withDBusMock(["--template", "notification_daemon"], owning: Self.interface, on: bus) { _ in
                let rig = try await Rig.make(bus: bus)
                do {
                    try await rig.startWearable()
                    try await rig.startPhone(mode: "monitor")
                    try await rig.pair()
                    try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                    let client = try await bus.connect()
                    let daemon = try #require(try await client.nameOwner(of: Self.interface))
                    var closed = try await client.signals(matching: .signal(interface: Self.interface, member: "NotificationClosed"))
                        .makeAsyncIterator()

                    let sent = try await runCommand(
                        "/usr/bin/notify-send", ["-p", "-A", "yes=Yes", "Meeting", "Join?"],
                        environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
                    let id = try #require(UInt32(sent.output))
                    let meetingKey = try await rig.waitUntilShown("Meeting")
                    // Actions cannot be invoked at another server, so the wearable offers none;
                    // a dismissal closes the notification there, and the daemon tells the apps.
                    let refused = await #expect(throws: SoakFailure.self) {
                        try await rig.ctl(["respond", String(meetingKey), "yes", "--control-socket", rig.wearableSocket])
                    }
                    #expect("\(refused.map { "\($0)" } ?? "")".contains("has no action 'yes'; choose one of: dismiss"), "\(String(describing: refused))")
                    let other = try await runCommand(
                        "/usr/bin/notify-send", ["-p", "Lunch", "Now?"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
                    let lunch = try #require(UInt32(other.output))
                    let lunchKey = try await rig.waitUntilShown("Lunch")
                    try await rig.ctl(["respond", String(lunchKey), "dismiss", "--control-socket", rig.wearableSocket])
                    let signal = try #require(await next(&closed))
                    #expect(signal.sender == daemon, "NotificationClosed came from \(signal.sender ?? "?"), not the daemon")
                    #expect(signal.arguments.first == .uint32(lunch))
                    try await rig.until("the phone's centre lets Lunch go") {
                        try await rig.phoneDelivered().allSatisfy { !$0.contains("Lunch") }
                    }
                    #expect(try await rig.phoneDelivered().contains { $0.hasPrefix("\(id) Meeting") }, "Meeting stays at the daemon")
                    await client.close()
                } catch {
                    await rig.stopAll()
                    throw error
                }
                await rig.stopAll()
            }
        }
    }
}
