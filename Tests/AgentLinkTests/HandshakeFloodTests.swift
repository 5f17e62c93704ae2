import Foundation
import RelayTransport
import Testing
import WearableAgent

/// Connections that open and never finish their handshake hold a socket and a task each until
/// the handshake's time limit: the wearable keeps only so many, closing the oldest for a new one.
@Suite("Connections that never finish their handshake", .timeLimit(.minutes(1)))
struct HandshakeFloodTests {
    @Test("the oldest gives way to a new connection, so silent sockets never keep the phone out")
    func silentConnectionsGiveWayToThePhone() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            let endpoint = TransportEndpoint.unix(path: harness.folder + "/link.sock")
            let limit = WearableLink.maximumHandshaking
            var silent: [FramedConnection] = []
            for _ in 0..<limit { silent.append(try await Transport.connect(to: endpoint)) }
            #expect(await waitFor { harness.wearable.connectionsInHandshake == limit })

            // The phone's pairing connection takes the place of the oldest silent one (refusing
            // it instead would keep the phone out); once it is the wearable's current
            // connection, every other one is closed.
            _ = try await harness.pair()
            #expect(await harness.waitUntilConnected())
            for connection in silent {
                let batch = try await connection.run { reader, _ in try await reader.nextBatch() }
                #expect(batch == nil, "the wearable closed the silent connection")
            }
            #expect(await waitFor { harness.wearable.connectionsInHandshake == 0 })
        }
    }
}
