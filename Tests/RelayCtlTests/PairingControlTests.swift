import Foundation
import RelayTestSupport
import Testing

/// relay-phone's control socket while `relayctl pair` waits for the user.
@Suite struct PairingControlTests {
    @Test(.timeLimit(.minutes(1))) func statusAnswersWhilePairingWaits() async throws {
        try await withPrivateBus { bus in
            let rig = try await Rig.make(bus: bus)
            do {
                try await rig.startWearable()
                try await rig.startPhone()
                let pairing = try ChildProcess(
                    RelayCtlTests.binary("relayctl").path, ["pair", "--yes", "--phone-socket", rig.phoneSocket],
                    mergingStandardError: true)
                try await rig.until("the wearable shows the pairing code") { try await rig.wearableStatus()["screen"] as? String == "pairing" }
                // relay-phone's answer to `pair` is still outstanding (the code is not confirmed on
                // the wearable); its control socket answers other requests meanwhile.
                let status = try await rig.phoneStatus()
                #expect(status["link"] as? String == "pairing", "\(status)")
                try await rig.ctl(["press", "select", "--control-socket", rig.wearableSocket])
                var output: [String] = []
                for await line in pairing.lines { output.append(line) }
                #expect(await pairing.wait() == 0, "\(output)")
                try await rig.until("the link is up") { try await rig.phoneStatus()["link"] as? String == "connected" }
            } catch {
                await rig.stopAll()
                throw error
            }
            await rig.stopAll()
        }
    }
}
