import Crypto
import Foundation
import RelayConformance
import RelayTestSupport
import RelayTransport
import Testing

/// relay-wearable, in loopback mode, against the conformance suite (Docs/PROTOCOL.md,
/// "Checking an implementation"): the suite plays the phone, frame by frame. The wearable is
/// paired by its state directory: its own key and the suite's public key as its partner's,
/// where `relayctl pair` would have put them.
@Suite struct WearableConformanceTests {
    @Test(.timeLimit(.minutes(3))) func relayWearableKeepsTheDocument() async throws {
        let phone = Curve25519.KeyAgreement.PrivateKey()
        let wearable = Curve25519.KeyAgreement.PrivateKey()
        let (directory, state) = try pairedStateDirectory(identity: wearable, partner: phone.publicKey)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let control = directory + "/wearable.sock"
        let agent = try ChildProcess(RelayCtlTests.binary("relay-wearable").path, [
            "--transport", "loopback", "--control-socket", control, "--framebuffer", directory + "/wearable.fb",
            "--state-directory", state, "--width", "200", "--height", "120", "--format", "xrgb8888", "--time-zone", "UTC",
        ])
        var lines = agent.lines.makeAsyncIterator()
        let ready = await lines.next()
        guard ready?.hasPrefix("ready:") == true else {
            await agent.stop()
            Issue.record("relay-wearable did not become ready; it printed: \(ready ?? "nothing")")
            return
        }
        let target = ConformanceTarget(
            reach: .listensAt(.unix(path: directory + "/wearable-link.sock")), localKey: phone.rawRepresentation,
            peerKey: wearable.publicKey.rawRepresentation, mayUnpair: true,
            confirmPairing: { _ in
                // Select answers the pairing screen's question; the screen comes just after the
                // wearable sent its nonce.
                let relayctl = RelayCtlTests.binary("relayctl").path
                let deadline = ContinuousClock.now + .seconds(30)
                while true {
                    let status = try await runCommand(relayctl, ["status", "--control-socket", control, "--json"])
                    let object = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
                    if object?["screen"] as? String == "pairing" { break }
                    guard ContinuousClock.now < deadline else {
                        throw ConformanceFailure("§7", "the wearable did not show its pairing screen; status: \(status.output)")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                let pressed = try await runCommand(relayctl, ["press", "select", "--control-socket", control])
                guard pressed.status == 0 else { throw ConformanceFailure("§7", "relayctl press select failed: \(pressed.output)") }
            })
        #expect(WearableConformance.cases.count >= 31)
        for test in WearableConformance.cases {
            let outcome = await test.run(against: target)
            #expect(outcome == .held, "\(test.section) \(test.name): \(outcome)")
        }
        // Every case closed its connection; the wearable is still there for the next phone.
        #expect(kill(agent.pid, 0) == 0)
        kill(agent.pid, SIGTERM)
        #expect(await agent.wait() == 0)
    }
}

/// A folder holding an agent's state directory (`state`) as a pairing would leave it: its own
/// key (`identity.key`) and its partner's public key (`partner.key`), 32 raw bytes each, 0600.
func pairedStateDirectory(
    identity: Curve25519.KeyAgreement.PrivateKey, partner: Curve25519.KeyAgreement.PublicKey
) throws -> (directory: String, state: String) {
    let directory = "/tmp/relay-conformance-\(UUID().uuidString.prefix(8))"
    let state = directory + "/state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    for (file, bytes) in [("identity.key", identity.rawRepresentation), ("partner.key", partner.rawRepresentation)] {
        guard FileManager.default.createFile(atPath: state + "/" + file, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: state + "/" + file])
        }
    }
    return (directory, state)
}
