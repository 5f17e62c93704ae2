import Foundation
import RelayCore
import RelayTestSupport
import RelayWire
import Testing
import WearableUI

/// relay-phone sends log entries while their commit syncs, so a power cut can leave the
/// wearable holding a notification, and a key, that the phone lost. At the next start-up
/// the phone starts a new epoch (RunRecord); this is what the wearable makes of it.
@Suite("After a power cut took writes the wearable had")
struct LostWritesTests {
    private static func key(of title: String, in events: [UIEvent]) -> UInt64? {
        events.compactMap { event -> UInt64? in
            guard case .upsert(let notification, _) = event, notification.content.title == title else { return nil }
            return WireKey.key(notification.identifier)
        }.last
    }

    @Test("the snapshot removes what the phone lost, silently, and later keys are new to the wearable")
    func snapshotReplacesWhatWasLost() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            try harness.owner.post(1, title: "Kept")
            try harness.owner.post(2, title: "Lost")
            #expect(await harness.screen.wait { Self.key(of: "Lost", in: $0) != nil })
            let lostKey = try #require(Self.key(of: "Lost", in: harness.screen.elements))

            // The phone restarts (the link down meanwhile), its centre without "Lost": that commit
            // was not on disk. The recovery runs before the link does.
            let before = harness.screen.elements.count
            #expect(await harness.goOutOfRange())
            try harness.owner.recoverFromLostWrites(keeping: [RecordingOwner.item(1, title: "Kept")])
            harness.outage.end()
            #expect(await harness.screen.wait { $0.dropFirst(before).contains(.remove(identifier: WireKey.identifier(lostKey))) })
            let after = Array(harness.screen.elements.dropFirst(before))
            #expect(!after.contains { if case .upsert(_, alert: true) = $0 { true } else { false } }, "the snapshot alerted")
            // What the wearable holds now is what the phone still has.
            let held = harness.wearable.initialEvents.compactMap { event -> String? in
                if case .upsert(let notification, _) = event { notification.content.title } else { nil }
            }
            #expect(held == ["Kept"], "the screen heard: \(after)")

            try harness.owner.post(3, title: "Next")
            #expect(await harness.screen.wait { Self.key(of: "Next", in: $0) != nil })
            let nextKey = try #require(Self.key(of: "Next", in: harness.screen.elements))
            #expect(nextKey > lostKey + 1_000_000, "a key the wearable may hold from the lost write would be handed out again")
        }
    }
}
