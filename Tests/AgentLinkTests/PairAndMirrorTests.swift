import Foundation
import Logging
import PhoneAgent
import RelayStore
import WearableAgent
import RelayCore
import RelayWire
import Testing
import WearableUI

@Suite("Phone and wearable links")
struct PairAndMirrorTests {
    static func shownTitles(_ events: [UIEvent]) -> [String: [Bool]] {
        var shown: [String: [Bool]] = [:]
        for case .upsert(let notification, let alert) in events { shown[notification.content.title, default: []].append(alert) }
        return shown
    }

    static func linkStates(_ events: [UIEvent]) -> [WearableUI.LinkState] {
        events.compactMap { event -> WearableUI.LinkState? in
            if case .link(let state) = event { return state }
            return nil
        }
    }

    @Test("pairing shows the same code on both sides, then notifications and responses flow")
    func pairMirrorRespond() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            let codes = try await harness.pair()
            #expect(codes.phone == codes.wearable)
            #expect(codes.phone.count == 6)
            #expect(await harness.waitUntilConnected())

            try harness.owner.post(1, title: "Lunch?")
            #expect(await harness.screen.wait { Self.shownTitles($0)["Lunch?"] == [true] })
            #expect(await harness.owner.alerted.wait { $0.contains { $0.alerted } })

            try harness.wearable.respond(
                NotificationResponse(notificationIdentifier: harness.screen.elements.compactMap {
                    if case .upsert(let n, _) = $0 { n.identifier } else { nil }
                }.last ?? "", action: .default, date: Date()))
            #expect(await harness.owner.responses.wait { $0.count == 1 })
            // The phone's removal (acted) comes back to the wearable.
            #expect(await harness.screen.wait { $0.contains { if case .remove = $0 { true } else { false } } })
            #expect(harness.coordinator.mirroredCount == 0)
        }
    }

    @Test("after the connection drops, nothing is shown twice and nothing is lost; with an offline alert window, young catch-ups alert once")
    func reconnectDoesNotDuplicate() async throws {
        try await AgentLinkHarness.with(offlineAlertWindow: 600) { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            for id in 1...20 { try harness.owner.post(UInt32(id), title: "N\(id)") }
            harness.phone.disconnect(reason: "test drop")
            for id in 21...40 { try harness.owner.post(UInt32(id), title: "N\(id)") }
            #expect(await harness.screen.wait { Self.shownTitles($0).count == 40 })
            let shown = Self.shownTitles(harness.screen.elements)
            #expect(shown.values.allSatisfy { $0 == [true] }, "each shown once, alerting once: \(shown)")
        }
    }

    @Test("a wearable whose clock is far behind (no real-time clock yet) does not alert for what waited while apart")
    func aClockBehindDoesNotMakeCatchUpsAlert() async throws {
        let yearAgo = ManualClock(Date().addingTimeInterval(-365 * 86_400))
        try await AgentLinkHarness.with(offlineAlertWindow: 600, clock: yearAgo) { harness in
            #expect(try await harness.startPaired())
            #expect(await harness.goOutOfRange())
            for id in 1...3 { try harness.owner.post(UInt32(id), title: "Apart \(id)") }
            harness.outage.end()
            #expect(await harness.screen.wait { Self.shownTitles($0).count == 3 })
            let shown = Self.shownTitles(harness.screen.elements)
            #expect((1...3).allSatisfy { shown["Apart \($0)"] == [false] }, "\(shown)")
        }
    }

    @Test("what the phone posted while the devices were apart arrives without alerting (no offline alert window)")
    func catchUpDoesNotAlert() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            try harness.owner.post(1, title: "Before")
            #expect(await harness.screen.wait { Self.shownTitles($0)["Before"] == [true] })
            // The wearable goes out of range; the phone keeps posting; the link comes back later.
            #expect(await harness.goOutOfRange())
            for id in 2...6 { try harness.owner.post(UInt32(id), title: "Apart \(id)") }
            harness.outage.end()
            #expect(await harness.screen.wait { Self.shownTitles($0).count == 6 })
            let shown = Self.shownTitles(harness.screen.elements)
            #expect((2...6).allSatisfy { shown["Apart \($0)"] == [false] }, "\(shown)")
        }
    }
}

@Suite("The phone's schedule on the wearable")
struct ScheduleMirrorTests {
    @Test("a scheduled request is mirrored with its trigger, survives a restart of the wearable, and goes when unscheduled")
    func scheduleMirrored() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            let scheduledAt = Date(timeIntervalSince1970: 1_900_000_000)
            try harness.owner.schedule(
                ScheduleItem(
                    appName: "Calendar", identifier: "stand-up", content: NotificationContent(title: "Stand-up"), category: nil,
                    trigger: .calendar(CalendarComponents(hour: 9, minute: 30), repeats: true), scheduledAt: scheduledAt,
                    timeZone: "Europe/Berlin"))
            // The log is ordered: once a notification posted after it is shown, the schedule is there.
            try harness.owner.post(1, title: "Barrier 1")
            #expect(await harness.screen.wait { Self.shows("Barrier 1", $0) })
            #expect(harness.wearable.scheduleCount == 1)
            // 2030-03-17T12:00Z (after the schedule) → the next 09:30 in Berlin is 08:30Z the next day.
            let next = harness.wearable.nextLocalFireDate(after: Date(timeIntervalSince1970: 1_900_000_000 + 3600))
            #expect(next.map { ISO8601DateFormatter().string(from: $0) } == "2030-03-18T08:30:00Z")
            // The copy is in the wearable's database: an agent started again on it has it.
            let reopened = try harness.reopenedWearable()
            #expect(reopened.scheduleCount == 1)

            try harness.owner.unschedule(appName: "Calendar", identifier: "stand-up")
            try harness.owner.post(2, title: "Barrier 2")
            #expect(await harness.screen.wait { Self.shows("Barrier 2", $0) })
            #expect(harness.wearable.scheduleCount == 0)
        }
    }

    static func shows(_ title: String, _ events: [UIEvent]) -> Bool {
        events.contains { if case .upsert(let n, _) = $0 { n.content.title == title } else { false } }
    }
}
