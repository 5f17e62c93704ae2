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

    @Test(.timeLimit(.minutes(1))) func unpairSucceedsWhenOnlyOneSideCanForget() async throws {
        try await withPrivateBus { bus in
            let rig = try await Rig.make(bus: bus)
            do {
                try await rig.startWearable()
                try await rig.startPhone()
                try await rig.pair()
                // The wearable is another device, out of reach: the phone forgets all the same.
                await rig.killWearable()
                let unpair = try ChildProcess(
                    RelayCtlTests.binary("relayctl").path,
                    ["unpair", "--phone-socket", rig.phoneSocket, "--wearable-socket", rig.wearableSocket], mergingStandardError: true)
                var output: [String] = []
                for await line in unpair.lines { output.append(line) }
                #expect(await unpair.wait() == 0, "\(output)")
                #expect(output.contains("relay-phone: unpaired"), "\(output)")
                #expect(output.contains { $0.hasPrefix("relayctl: relay-wearable is not running") }, "\(output)")
                try await rig.until("the phone has no partner") { try await rig.phoneStatus()["link"] as? String == "unpaired" }
            } catch {
                await rig.stopAll()
                throw error
            }
            await rig.stopAll()
        }
    }

    /// Without --yes and with nobody to answer (standard input closed, as under a script),
    /// relayctl says so and calls the pairing off, rather than report codes that did not match;
    /// `relayctl notify` without a title is refused, as notify-send refuses one.
    @Test(.timeLimit(.minutes(1))) func pairingWithNobodyToAnswerSaysSoAndNotifyWantsATitle() async throws {
        try await withPrivateBus { bus in
            try await Rig.with(bus: bus) { rig in
                try await rig.startWearable()
                try await rig.startPhone()
                let unanswered = try ChildProcess(
                    RelayCtlTests.binary("relayctl").path, ["pair", "--phone-socket", rig.phoneSocket], mergingStandardError: true)
                var output: [String] = []
                for await line in unanswered.lines { output.append(line) }
                #expect(await unanswered.wait() == 1)
                #expect(output.contains("relayctl: no answer: use --yes, or answer on a terminal; the pairing was called off"), "\(output)")
                #expect(!output.contains { $0.contains("did not match") }, "\(output)")
                try await rig.until("the phone is back to unpaired") { try await rig.phoneStatus()["link"] as? String == "unpaired" }
                try await rig.pair()

                let untitled = try ChildProcess(
                    RelayCtlTests.binary("relayctl").path,
                    ["notify", "--bus", bus.address, "--app-id", "org.example.Empty", "--body", "no title"], mergingStandardError: true)
                var refusal: [String] = []
                for await line in untitled.lines { refusal.append(line) }
                #expect(await untitled.wait() == 64)
                #expect(refusal.joined().contains("give --title: relayctl wants a title"), "\(refusal)")
            }
        }
    }
}
