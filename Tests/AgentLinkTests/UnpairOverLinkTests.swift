import Foundation
import RelayTestSupport
import Testing

/// `relayctl unpair` on one side, while the link is up, tells the other side
/// (`Error{code: UNPAIRED}`, PROTOCOL.md §9.1), which forgets the pairing too; a side that
/// merely closes the link is not forgotten.
@Suite("Unpairing over the link")
struct UnpairOverLinkTests {
    @Test("the phone unpairs: the wearable forgets the phone and says so once")
    func phoneUnpairs() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            let forgotten = EventLog<String>()
            harness.wearable.whenPartnerUnpaired { forgotten.append(["wearable"]) }
            harness.phone.whenPartnerUnpaired { forgotten.append(["phone"]) }

            try harness.phone.unpair()
            #expect(await forgotten.wait { $0 == ["wearable"] })
            #expect(harness.wearable.status.state == "unpaired")
            #expect(harness.wearable.status.partnerFingerprint == nil)
            #expect(harness.phone.status.state == "unpaired")
        }
    }

    @Test("the phone's unpair can be waited for until its session has ended, and not longer")
    func waitingForTheSessionEnd() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            try harness.phone.unpair()
            let start = ContinuousClock.now
            await harness.phone.waitForSessionEnd(within: .seconds(60))
            #expect(ContinuousClock.now - start < .seconds(30), "it returned when the session ended, not at the limit")
            #expect(harness.phone.status.connectedSince == nil)
            // No session: it returns at once.
            await harness.phone.waitForSessionEnd(within: .seconds(60))
        }
    }

    @Test("the wearable unpairs: the phone forgets the wearable")
    func wearableUnpairs() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            let forgotten = EventLog<String>()
            harness.phone.whenPartnerUnpaired { forgotten.append(["phone"]) }

            try harness.wearable.unpair()
            #expect(await forgotten.wait { $0 == ["phone"] })
            #expect(harness.phone.status.state == "unpaired", "\(harness.phone.status.lastError ?? "")")
            #expect(harness.phone.status.partnerFingerprint == nil)
        }
    }

    @Test("a link closed for another reason forgets nothing")
    func aClosedLinkKeepsThePairing() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            let forgotten = EventLog<String>()
            harness.wearable.whenPartnerUnpaired { forgotten.append(["wearable"]) }
            harness.phone.disconnect(reason: "test drop")
            #expect(await harness.waitUntilConnected())
            #expect(forgotten.elements.isEmpty)
            #expect(harness.wearable.status.partnerFingerprint != nil)
        }
    }
}
