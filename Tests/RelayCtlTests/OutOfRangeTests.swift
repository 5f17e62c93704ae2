import Foundation
import RelayTestSupport
import RelayTransport
import Testing

/// The devices apart and back (Docs/PHONE.md, "Out of range"), with both agents as processes and
/// the link simulator between them: the wearable fires the phone's schedule by itself, takes the
/// user's reply, survives a restart, and on reconnect both sides reconcile.
@Suite struct OutOfRangeTests {
    @Test(.timeLimit(.minutes(3))) func apartAndBack() async throws {
        try await withPrivateBus { bus in
            let rig = try await Rig.make(bus: bus)
            let outage = OutageSwitch()
            let simulatorSocket = rig.directory + "/sim.sock"
            let listening = Gate()
            let simulator = Task {
                try await LinkSimulator(conditions: LinkConditions(), upstream: .unix(path: rig.linkSocket), outage: outage)
                    .run(on: .unix(path: simulatorSocket)) { _ in listening.open() }
            }
            defer { simulator.cancel() }
            do {
                await listening.wait()
                try await run(rig, outage: outage, simulatorSocket: simulatorSocket, bus: bus)
            } catch {
                await rig.stopAll()
                throw error
            }
            await rig.stopAll()
        }
    }

    private func run(_ rig: Rig, outage: OutageSwitch, simulatorSocket: String, bus: PrivateBus) async throws {
        let wearable = ["--control-socket", rig.wearableSocket]
        let phone = ["--control-socket", rig.phoneSocket]
        try await rig.startWearable()
        try await rig.startPhone(peer: simulatorSocket)
        try await rig.pair()
        try await rig.ctl(["lock"] + phone)
        let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]

        // Before the outage: a meeting invite waited on by notify-send, a note, and a stand-up
        // scheduled to fire a few seconds later.
        let meeting = try ChildProcess(
            "/usr/bin/notify-send", ["--wait", "-A", "accept=Accept", "-A", "decline=Decline", "Meeting", "Tomorrow 10:00"],
            environment: environment)
        let noteID = try await runCommand("/usr/bin/notify-send", ["-p", "Note", "Buy milk"], environment: environment)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let offerID = try await runCommand("/usr/bin/notify-send", ["-p", "Offer", "20% off"], environment: environment)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let meetingID = try await rig.waitUntilShown("Meeting")
        _ = try await rig.waitUntilShown("Note")
        let offerOnWrist = try await rig.waitUntilShown("Offer")
        try await rig.ctl(["schedule", "--bus", bus.address, "--app-id", "org.example.Team", "--in", "6", "--title", "Stand-up"])
        try await rig.until("the wearable holds the schedule") { try await rig.wearableStatus()["schedules"] as? Int == 1 }

        // Apart: the wearable notices at once (the transport closed) and fires the stand-up itself.
        outage.begin()
        try await rig.until("the wearable is standalone") { try await rig.wearableStatus()["mode"] as? String == "standalone" }
        try await rig.until("the wearable fires the stand-up by itself", timeout: .seconds(20)) {
            try await rig.wearableStatus()["offlineOccurrences"] as? Int == 1
        }
        let local = try await rig.wearableNotifications().filter { $0.title == "Stand-up" }
        #expect(local.count == 1)
        // The user accepts the meeting and dismisses the offer on the wrist; the note is
        // dismissed on the phone.
        try await rig.ctl(["respond", String(meetingID), "accept"] + wearable)
        try await rig.ctl(["respond", String(offerOnWrist), "dismiss"] + wearable)
        #expect(try await rig.wearableStatus()["queuedResponses"] as? Int == 2)
        guard let note = UInt32(noteID) else { throw SoakFailure("notify-send -p printed \(noteID)") }
        try await rig.ctl(["dismiss", String(note)] + phone)
        _ = try await runCommand("/usr/bin/notify-send", ["During", "posted while apart"], environment: environment)

        // The wearable restarts during the outage: its schedule, its record and its outbox stay.
        await rig.killWearable()
        try await rig.startWearable()
        let restarted = try await rig.wearableStatus()
        #expect(restarted["schedules"] as? Int == 1)
        #expect(restarted["offlineOccurrences"] as? Int == 1)
        #expect(restarted["queuedResponses"] as? Int == 2)
        #expect(restarted["mode"] as? String == "standalone")

        // Back in range: everything reconciles.
        outage.end()
        try await rig.until("the wearable has reconciled", timeout: .seconds(60)) {
            let status = try await rig.wearableStatus()
            return status["mode"] as? String == "connected" && status["offlineOccurrences"] as? Int == 0
                && status["queuedResponses"] as? Int == 0
        }
        var answered: [String] = []
        for await line in meeting.lines { answered.append(line) }
        #expect(await meeting.wait() == 0)
        #expect(answered == ["accept"], "the reply made apart reached notify-send once")

        try await rig.until("the note's removal and the new notification arrive") {
            let titles = try await rig.wearableNotifications().map(\.title)
            return !titles.contains("Note") && titles.contains("During")
        }
        let shown = try await rig.wearableNotifications()
        #expect(shown.filter { $0.title == "Stand-up" }.count == 1, "the stand-up shows once: \(shown)")
        #expect(shown.filter { $0.title == "Meeting" }.isEmpty)
        #expect(shown.first { $0.title == "During" }?.alerts == 0, "what waited while apart arrives without alerting")
        let delivered = try await rig.phoneDelivered()
        #expect(delivered.filter { $0.contains("Stand-up") }.count == 1, "\(delivered)")
        #expect(!delivered.contains { $0.hasPrefix(offerID + " ") }, "the dismissal made apart reached the phone: \(delivered)")
        #expect(shown.filter { $0.title == "Offer" }.isEmpty)
        // One alert for the stand-up across the wearable's lives: the one it fired itself.
        let alerts = rig.alertsByIdentifier()
        let standUpIDs = shown.filter { $0.title == "Stand-up" }.map { String($0.id) } + local.map { String($0.id) }
        #expect(Set(standUpIDs).map { alerts[$0] ?? 0 }.reduce(0, +) == 1, "alerts: \(alerts)")
    }
}
