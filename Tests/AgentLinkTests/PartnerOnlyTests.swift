import Foundation
import Logging
import PhoneAgent
import RelayCore
import RelayStore
import RelayWire
import Testing
import WearableAgent
import WearableUI

@Suite("Only the partner gets in; state survives a restart")
struct PartnerOnlyTests {
    @Test("after pairing, another phone is refused and the partner's session goes on")
    func strangersAreRefused() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)

            let stranger = try harness.stranger()
            defer { stranger.committer.stop() }
            do {
                _ = try await stranger.beginPairing(timeout: .seconds(10))
                Issue.record("a paired wearable offered a pairing code to a stranger")
            } catch {
                #expect("\(error)".contains("the wearable is not accepting pairing: it is paired with a phone already"))
            }
            // The partner's session is untouched: a notification still arrives.
            try harness.owner.post(7, title: "Still here")
            #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "Still here" } else { false } } })
        }
    }

    @Test("the wearable's replica and pairing survive a restart of its agent")
    func replicaSurvivesRestart() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            for id in 1...3 { try harness.owner.post(UInt32(id), title: "Kept \(id)") }
            #expect(await harness.screen.wait { $0.filter { if case .upsert = $0 { true } else { false } }.count == 3 })

            let reopened = try harness.reopenedWearable()
            let titles = reopened.initialEvents.compactMap { if case .upsert(let n, let alert) = $0 { alert ? nil : n.content.title } else { nil } }
            #expect(titles.sorted() == ["Kept 1", "Kept 2", "Kept 3"])
            #expect(reopened.status.partnerFingerprint == harness.wearable.status.partnerFingerprint)
            #expect(reopened.status.partnerFingerprint != nil)
        }
    }

    @Test("what the user answered while apart is not shown again by a restarted wearable, and its answer still reaches the phone once")
    func answeredWhileApartStaysAnsweredAcrossARestart() async throws {
        try await AgentLinkHarness.with { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            try harness.owner.post(1, title: "Answered")
            try harness.owner.post(2, title: "Waiting")
            #expect(await harness.screen.wait { $0.filter { if case .upsert = $0 { true } else { false } }.count == 2 })
            #expect(await harness.goOutOfRange())
            let answered = harness.screen.elements.compactMap { event -> String? in
                if case .upsert(let n, _) = event, n.content.title == "Answered" { n.identifier } else { nil }
            }.first ?? ""
            try harness.wearable.respond(NotificationResponse(notificationIdentifier: answered, action: .dismiss, date: Date()))

            let reopened = try harness.reopenedWearable()
            let titles = reopened.initialEvents.compactMap { if case .upsert(let n, _) = $0 { n.content.title } else { nil } }
            #expect(titles == ["Waiting"])
            #expect(reopened.queuedResponses == 1, "the answer waits for the phone")

            harness.outage.end()
            #expect(await harness.owner.responses.wait { $0.count == 1 })
            #expect(harness.owner.responses.elements.count == 1)
        }
    }

    @Test("state files are private: databases and keys are mode 0600")
    func filesArePrivate() async throws {
        try await AgentLinkHarness.with { harness in
            // The wearable stores its partner's key as pairing ends on its side, which may be just
            // after the phone's side returns; the session needs it.
            let connected = try await harness.startPaired()
            #expect(connected)
            try harness.owner.post(1, title: "Private")
            for file in ["phone/phone.sqlite", "phone/identity.key", "phone/partner.key", "wearable/wearable.sqlite", "wearable/partner.key"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: harness.folder + "/" + file)
                let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
                #expect(mode == 0o600, "\(file) has mode \(String(mode, radix: 8))")
            }
        }
    }

    @Test("an event from the wearable out of the wire's limits is refused and passed over, not applied")
    func outOfLimitsEventIsRefused() async throws {
        try await AgentLinkHarness.with { harness in
            var fired = Relay_V1_WearableEvent()
            fired.at = 1_700_000_000
            fired.firedLocally.scheduleKey = 7
            fired.firedLocally.fireDate = .min
            try await harness.phone.apply(seq: 1, body: .event(fired))
            #expect(try harness.phone.database.read { db in try LinkLogTables.state(db).appliedThrough } == 1)
            #expect(harness.owner.alerted.elements.isEmpty && harness.owner.responses.elements.isEmpty)
        }
    }
}
