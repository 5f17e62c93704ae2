import Foundation
import PhoneAgent
import RelayTransport
import Synchronization
import Testing
import WearableUI

/// A pairing right after a Bluetooth bond: the wearable's side may refuse the first connects
/// while the new bond settles, and the phone tries again within its connector's window.
@Suite("Pairing tries the connect again")
struct PairingConnectRetryTests {
    /// Refuses its first `failures` connects, then connects to `endpoint`.
    final class RefusingConnector: WearableConnector {
        let endpoint: TransportEndpoint
        let pairingConnectWindow: Duration
        let attempts = Atomic<Int>(0)
        private let failures: Int

        init(endpoint: TransportEndpoint, failures: Int, window: Duration) {
            self.endpoint = endpoint
            self.failures = failures
            pairingConnectWindow = window
        }

        func connect() async throws -> FramedConnection {
            let attempt = attempts.add(1, ordering: .relaxed).newValue
            guard attempt > failures else { throw POSIXError(.ECONNREFUSED) }
            return try await Transport.connect(to: endpoint)
        }

        let transportName = "test"
        var statusValues: [String: ConnectorStatusValue] { [:] }
    }

    @Test("two refused connects inside the window, then the code")
    func refusedConnectsAreTriedAgain() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            let connector = RefusingConnector(endpoint: .unix(path: harness.folder + "/link.sock"), failures: 2, window: .seconds(10))
            let phone = try harness.stranger(connector: connector)
            defer { phone.committer.stop() }
            let offer = try await phone.beginPairing(timeout: .seconds(20))
            #expect(connector.attempts.load(ordering: .relaxed) == 3)
            #expect(offer.code.count == 6)
            #expect(await harness.screen.wait { $0.contains { if case .pairingCode(let code) = $0 { code == offer.code } else { false } } })
        }
    }

    @Test("without a window, the first refused connect ends the pairing with the reason")
    func withoutAWindowTheFirstFailureEndsIt() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            let connector = RefusingConnector(endpoint: .unix(path: harness.folder + "/link.sock"), failures: 1, window: .zero)
            let phone = try harness.stranger(connector: connector)
            defer { phone.committer.stop() }
            await #expect(throws: PhoneLinkError.self) { _ = try await phone.beginPairing(timeout: .seconds(20)) }
            #expect(connector.attempts.load(ordering: .relaxed) == 1)
        }
    }
}
