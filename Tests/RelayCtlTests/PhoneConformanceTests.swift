import Crypto
import Foundation
import RelayConformance
import RelayDisplay
import RelayTestSupport
import RelayTransport
import Testing

/// relay-phone, in loopback mode on a private bus, against the conformance suite's phone side
/// (Docs/PROTOCOL.md, "Checking an implementation"): the suite plays the wearable, listening
/// where relay-phone connects, and takes its next connection for each case. relay-phone is
/// paired by its state directory, as `relayctl pair` would have left it.
@Suite struct PhoneConformanceTests {
    @Test(.timeLimit(.minutes(5))) func relayPhoneKeepsTheDocument() async throws {
        try await withPrivateBus { bus in
            let phone = Curve25519.KeyAgreement.PrivateKey()
            let wearable = Curve25519.KeyAgreement.PrivateKey()
            let (directory, state) = try pairedStateDirectory(identity: phone, partner: wearable.publicKey)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let link = directory + "/wearable-link.sock"
            let listener = try await ConformanceListener(at: .unix(path: link))
            defer { listener.stop() }
            let control = directory + "/phone.sock"
            let agent = try ChildProcess(
                RelayCtlTests.binary("relay-phone").path,
                ["--transport", "loopback", "--bus", bus.address, "--control-socket", control, "--state-directory", state, "--peer", link])
            var lines = agent.lines.makeAsyncIterator()
            let ready = await lines.next()
            guard ready?.hasPrefix("ready:") == true else {
                await agent.stop()
                Issue.record("relay-phone did not become ready; it printed: \(ready ?? "nothing")")
                return
            }
            // Locked, so that what is posted goes to the wearable.
            #expect(try await runCommand(RelayCtlTests.binary("relayctl").path, ["lock", "--control-socket", control]).status == 0)
            let address = bus.address
            let picture = directory + "/picture.png"
            try PNGFile.write(try ImageAttachmentTests.picture(width: 64, height: 48), to: picture)
            let target = ConformanceTarget(
                reach: .connectsTo(listener), localKey: wearable.rawRepresentation, peerKey: phone.publicKey.rawRepresentation,
                patience: .seconds(30),
                appendEntry: {
                    let posted = try await runCommand(
                        "/usr/bin/notify-send", ["Conformance", "Posted for the suite"], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
                    guard posted.status == 0 else { throw ConformanceFailure("§8.4", "notify-send failed: \(posted.output)") }
                },
                appendAttachment: {
                    let posted = try await runCommand(
                        "/usr/bin/notify-send", ["-h", "string:image-path:" + picture, "Conformance", "A picture for the suite"],
                        environment: ["DBUS_SESSION_BUS_ADDRESS": address])
                    guard posted.status == 0 else { throw ConformanceFailure("§8.8", "notify-send failed: \(posted.output)") }
                },
                mayUnpair: true,
                startPairing: {
                    let paired = try await runCommand(RelayCtlTests.binary("relayctl").path, ["pair", "--yes", "--phone-socket", control])
                    guard paired.status == 0 else { throw ConformanceFailure("§7", "relayctl pair failed: \(paired.output)") }
                    return paired.output
                })
            #expect(PhoneConformance.cases.count >= 26)
            for test in PhoneConformance.cases {
                let outcome = await test.run(against: target)
                #expect(outcome == .held, "\(test.section) \(test.name): \(outcome)")
            }
            kill(agent.pid, SIGTERM)
            #expect(await agent.wait() == 0)
        }
    }
}
