import Foundation
import Logging
import RelayLink
import RelayLinkRuntime
import RelayTransport
import RelayWire
import Testing
import WearableAgent
import WearableUI

/// A phone that completes the pairing handshake but whose code nobody confirms, with one
/// notification in its log to push.
private final class UnconfirmedPhone: LinkDelegate {
    let change: Relay_V1_Envelope.OneOf_Body = .change(
        .with {
            $0.upsert = .with {
                $0.key = 1
                $0.revision = 1
                $0.mayAlert = true
                $0.content.title = "Planted"
            }
        })

    func loadLogs() async throws -> LinkSession.Logs {
        LinkSession.Logs(
            outbound: OutboundLog(pending: [.init(seq: 1, body: change)]), ownEpoch: 99, inbound: InboundCursor(), peerEpoch: 0)
    }
    func apply(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) async throws {}
    func acknowledged(through seq: UInt64) async throws {}
    func peerLogReset(epoch: UInt64) async throws {}
    func received(_ body: Relay_V1_Envelope.OneOf_Body) async {}
    func connected(peer: Relay_V1_Hello, link: LinkIdentity) async {}
}

@Suite("A phone whose pairing code nobody confirmed", .timeLimit(.minutes(1)))
struct UnconfirmedPairingTests {
    @Test("nothing it sends is shown, alerted or stored: its changes end the connection")
    func changesBeforeConfirmationAreRefused() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            let connection = try await Transport.connect(to: .unix(path: harness.folder + "/link.sock"))
            var logger = Logger(label: "unconfirmed")
            logger.logLevel = .critical
            let phone = LinkConnectionDriver(
                role: .initiator(.pair), localKey: StaticKeyPair.generate(), hello: .with { $0.role = .phone },
                delegate: UnconfirmedPhone(), logger: logger)
            let (idle, _) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
            // Returns only because the wearable ends the connection: an accepted session would
            // go on with heartbeats until the time limit.
            _ = await phone.run(connection, commands: idle)
            #expect(!harness.screen.elements.contains { if case .upsert = $0 { true } else { false } })
            #expect(harness.wearable.status.shown == 0)
        }
    }
}
