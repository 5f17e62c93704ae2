import ArgumentParser
import Foundation
import RelayConformance
import RelayTransport

/// `relay-conformance wearable`: checks an implementation of the wearable's side of the link
/// against Docs/PROTOCOL.md, frame by frame, playing the phone. Prints a line a case and
/// exits 1 if any failed.
@main
struct RelayConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-conformance",
        abstract: "Checks an implementation of Relay's link protocol against Docs/PROTOCOL.md.",
        discussion: """
            Plays the phone against a wearable that listens at ENDPOINT and holds this side's key \
            as its partner's (pair it first, or put the public key printed with --print-public-key \
            where the implementation keeps its partner's key). Each case names the section of \
            PROTOCOL.md it checks.
            """)

    @Argument(help: "The side under test; only 'wearable' so far.")
    var side: String

    @Option(help: "Where the wearable listens: unix:PATH (or a path), tcp:127.0.0.1:PORT, rfcomm:ADDRESS/CHANNEL.")
    var endpoint: String

    @Option(help: "A file holding this side's 32-byte X25519 private key (the phone's identity the wearable is paired with).")
    var key: String

    @Option(help: "The wearable's static public key, 64 hex digits.")
    var peerKey: String

    @Option(help: "Run only the cases of this section (§8.5 or 8.5).")
    var section: String?

    @Option(help: "Seconds the implementation may take to answer one step.")
    var patience: Int = 10

    mutating func validate() throws {
        guard side == "wearable" else {
            throw ValidationError("only the wearable's side can be checked so far: relay-conformance wearable …")
        }
    }

    func run() async throws {
        let target = try ConformanceTarget(
            endpoint: TransportEndpoint(parsing: endpoint), localKey: privateKey(), peerKey: publicKey(), patience: .seconds(patience))
        var failures = 0
        let wanted = section.map { $0.hasPrefix("§") ? $0 : "§" + $0 }
        for test in WearableConformance.cases where wanted == nil || test.section == wanted {
            if let failure = await test.run(against: target) {
                failures += 1
                print("FAIL \(test.section) \(test.name): \(failure.message)")
            } else {
                print("PASS \(test.section) \(test.name)")
            }
        }
        print(failures == 0 ? "conformance: every case held" : "conformance: \(failures) case(s) failed")
        if failures > 0 { throw ExitCode(1) }
    }

    private func privateKey() throws -> Data {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: key))
        } catch {
            throw ValidationError("cannot read the key file \(key): \(error.localizedDescription)")
        }
        guard bytes.count == 32 else {
            throw ValidationError("\(key) must hold exactly 32 bytes, an X25519 private key (it holds \(bytes.count))")
        }
        return bytes
    }

    private func publicKey() throws -> Data {
        let digits = Array(peerKey.filter { !$0.isWhitespace })
        let bytes = stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
        guard digits.count == 64, bytes.count == 32 else {
            throw ValidationError("--peer-key must be the wearable's public key as 64 hex digits")
        }
        return Data(bytes)
    }
}
