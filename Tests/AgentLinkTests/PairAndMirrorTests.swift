import Foundation
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

    @Test("pairing shows the same code on both sides, then notifications and responses flow")
    func pairMirrorRespond() async throws {
        let harness = try AgentLinkHarness()
        defer { harness.stop() }
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

    @Test("after the connection drops, nothing is shown twice and nothing is lost")
    func reconnectDoesNotDuplicate() async throws {
        let harness = try AgentLinkHarness()
        defer { harness.stop() }
        await harness.start()
        _ = try await harness.pair()
        #expect(await harness.waitUntilConnected())
        for id in 1...20 { try harness.owner.post(UInt32(id), title: "N\(id)") }
        harness.phone.disconnect(reason: "test drop")
        for id in 21...40 { try harness.owner.post(UInt32(id), title: "N\(id)") }
        #expect(await harness.screen.wait { Self.shownTitles($0).count == 40 })
        let shown = Self.shownTitles(harness.screen.elements)
        #expect(shown.values.allSatisfy { $0 == [true] }, "each shown once, alerting once: \(shown)")
    }
}
