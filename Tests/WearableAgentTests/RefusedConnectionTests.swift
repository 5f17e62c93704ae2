import Foundation
import Logging
import RelayLinkRuntime
import RelayStore
import RelayWire
import Testing
@testable import WearableAgent

/// What a connection the wearable did not admit as the partner's session sends — one refused
/// while it was set up (overtaken by a newer one, or the partner changed meanwhile), whose
/// Hello came with entries in the same read — changes nothing. The session's own checks stop a
/// pairing connection's entries before this (PROTOCOL.md §8.2); this guard is the agent's.
@Suite struct RefusedConnectionTests {
    @Test func entriesAndAcknowledgementsFromAConnectionNeverAdmittedChangeNothing() async throws {
        let folder = NSTemporaryDirectory() + "relay-refused-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = try WearableLink(
            directory: StateDirectory(path: folder),
            configuration: WearableLink.Configuration(deviceName: "Test", capabilities: Relay_V1_Capabilities()),
            logger: Logger(label: "test"), present: { _ in })
        let refused = WearableSessionDelegate(link: link, connection: 7)
        await #expect(throws: (any Error).self) {
            try await refused.apply([InboundEntry(seq: 1, body: .change(ReplicaTests.upsert(1, revision: 1, title: "Planted")))])
        }
        try await refused.peerLogReset(epoch: 99)
        try await refused.acknowledged(through: 1)
        // Read outside #expect: its expansion of a call on a Mutex (not copyable) crashed under Swift 6.3.
        let (shown, applied) = try link.state.withLock { state in
            (state.replica.contents.notifications.isEmpty, try link.database.read { db in try LinkLogTables.state(db).appliedThrough })
        }
        #expect(shown, "a refused connection's change was applied")
        #expect(applied == 0, "a refused connection moved the wearable's place in the phone's log")
    }
}
