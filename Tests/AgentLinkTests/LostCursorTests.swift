import Foundation

import RelayCore
import RelayStore
import RelayTestSupport
import Testing
import WearableUI

/// A phone that lost its place in the wearable's log (its database reset, its keys kept).
@Suite("The wearable's log after the phone lost its cursor")
struct LostCursorTests {
    static func respondToLast(_ harness: AgentLinkHarness) throws {
        let identifier = harness.screen.elements.compactMap { if case .upsert(let n, _) = $0 { n.identifier } else { nil } }.last ?? ""
        try harness.wearable.respond(NotificationResponse(notificationIdentifier: identifier, action: .default, date: Date()))
    }

    @Test("the wearable starts a new epoch of its log, the link comes back, and responses flow again")
    func newEpochAfterLostCursor() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            try harness.owner.post(1, title: "First")
            #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "First" } else { false } } })
            try Self.respondToLast(harness)
            #expect(await harness.owner.responses.wait { $0.count == 1 })
            // Acknowledged and deleted on the wearable: the phone can no longer be sent it again.
            #expect(await waitFor { harness.wearable.queuedResponses == 0 })

            #expect(await harness.goOutOfRange())
            try harness.phone.database.write { db in try LinkLogTables.peerLogReset(db, epoch: 0) }
            let apart = harness.screen.elements.count
            harness.outage.end()
            // The first connection fails (the wearable cannot resend what it deleted); the next one,
            // in the wearable's new epoch, holds.
            #expect(await harness.screen.wait { PairAndMirrorTests.linkStates(Array($0.dropFirst(apart))).last == .connected })

            try harness.owner.post(2, title: "Second")
            #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "Second" } else { false } } })
            try Self.respondToLast(harness)
            #expect(await harness.owner.responses.wait { $0.count == 2 })
            #expect(harness.owner.responses.elements.count == 2, "the first response was not applied again")
        }
    }
}
