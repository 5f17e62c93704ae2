import Foundation
import RelayTransport
import Testing
import WearableAgent

/// Connections that open and never finish their handshake hold a socket and a task each until
/// the handshake's time limit: the wearable takes only so many at once.
@Suite("Connections that never finish their handshake", .timeLimit(.minutes(1)))
struct HandshakeFloodTests {
    @Test("beyond the limit a connection is closed at once, and the partner still gets in once they go")
    func onlySoManyWaitInTheirHandshake() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            let endpoint = TransportEndpoint.unix(path: harness.folder + "/link.sock")
            var silent: [FramedConnection] = []
            for _ in 0..<WearableLink.maximumHandshaking { silent.append(try await Transport.connect(to: endpoint)) }
            #expect(await waitFor { harness.wearable.connectionsInHandshake == WearableLink.maximumHandshaking })

            // One more is closed by the wearable without a word: its read ends at once.
            let extra = try await Transport.connect(to: endpoint)
            let batch = try await extra.run { reader, _ in try await reader.nextBatch() }
            #expect(batch == nil)
            #expect(harness.wearable.connectionsInHandshake == WearableLink.maximumHandshaking)

            for connection in silent { await connection.close() }
            #expect(await waitFor { harness.wearable.connectionsInHandshake == 0 })
            _ = try await harness.pair()
            #expect(await harness.waitUntilConnected())
        }
    }
}
