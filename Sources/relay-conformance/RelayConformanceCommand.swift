import ArgumentParser
import Foundation
import RelayConformance
import RelayTransport

/// `relay-conformance wearable|phone`: checks an implementation of one side of the link
/// against Docs/PROTOCOL.md, frame by frame, playing the other side. Prints a line a case and
/// exits 1 if any failed.
@main
struct RelayConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-conformance",
        abstract: "Checks an implementation of Relay's link protocol against Docs/PROTOCOL.md.",
        discussion: """
            'wearable': plays the phone against a wearable listening at --endpoint. 'phone': plays \
            the wearable, listening at --endpoint for the phone to connect (again after each \
            case). The implementation must hold the public key of --key as its partner's (pair \
            it first, or store the key where it keeps its partner's). Each case names the section \
            of PROTOCOL.md it checks.
            """)

    @Argument(help: "The side under test: wearable or phone.")
    var side: String

    @Option(help: "wearable: where it listens (unix:PATH, tcp:127.0.0.1:PORT, rfcomm:ADDRESS/CHANNEL); phone: where the suite listens for it (unix:PATH, tcp:127.0.0.1:PORT).")
    var endpoint: String

    @Option(help: "wearable over rfcomm: the address of the local adapter to connect from (the one bonded with the wearable); default: the kernel's choice.")
    var adapterAddress: String?

    @Option(help: "A file holding this side's 32-byte X25519 private key (the identity the implementation is paired with).")
    var key: String

    @Option(help: "The implementation's static public key, 64 hex digits.")
    var peerKey: String?

    @Option(help: "A file holding the implementation's 32-byte static public key (Relay's agents keep their partner's as partner.key).")
    var peerKeyFile: String?

    @Option(help: "phone: a shell command that makes the phone append an entry to its log (post a notification, e.g. notify-send); without it that case is skipped.")
    var appendCommand: String?

    @Option(help: "phone: a shell command that makes the phone post a notification with an image (notify-send with an image-path hint); without it the attachment case is skipped.")
    var appendAttachmentCommand: String?

    @Option(help: "phone: a shell command that pairs the phone and confirms the code on it (relayctl pair --yes); its output must show the code. Without it the pairing case is skipped.")
    var pairCommand: String?

    @Option(help: "phone: the most entries it sends unacknowledged (§8.4's window).")
    var window: Int = 64

    @Flag(help: "also run the unpairing case (§9.1), which leaves the implementation unpaired; the pairing case (§7) after it pairs it again if given --confirm-command (wearable) or --pair-command (phone).")
    var mayUnpair = false

    @Option(help: "wearable, with --may-unpair: a shell command that answers yes on the wearable once it shows the pairing code (given in RELAY_PAIRING_CODE), so that the suite pairs it again (§7).")
    var confirmCommand: String?

    @Option(help: "Run only the cases of this section (§8.5 or 8.5).")
    var section: String?

    @Option(help: "Seconds the implementation may take to answer one step.")
    var patience: Int = 10

    mutating func validate() throws {
        guard side == "wearable" || side == "phone" else {
            throw ValidationError("the side under test is 'wearable' or 'phone', not '\(side)'")
        }
        guard (peerKey == nil) != (peerKeyFile == nil) else {
            throw ValidationError("give the implementation's public key with --peer-key (hex) or --peer-key-file, one of them")
        }
    }

    func run() async throws {
        let endpoint = try TransportEndpoint(parsing: endpoint)
        let listener = side == "phone" ? try await ConformanceListener(at: endpoint) : nil
        defer { listener?.stop() }
        let append = appendCommand.map { command in { @Sendable () async throws in _ = try await Self.runShell(command, "--append-command") } }
        let appendAttachment = appendAttachmentCommand.map { command in
            { @Sendable () async throws in _ = try await Self.runShell(command, "--append-attachment-command") }
        }
        let pair = pairCommand.map { command in { @Sendable () async throws -> String in try await Self.runShell(command, "--pair-command") } }
        let confirm = confirmCommand.map { command in
            { @Sendable (code: String) async throws in
                _ = try await Self.runShell(command, "--confirm-command", environment: ["RELAY_PAIRING_CODE": code])
            }
        }
        let target = ConformanceTarget(
            reach: listener.map { .connectsTo($0) } ?? .listensAt(endpoint, adapterAddress: adapterAddress), localKey: try privateKey(),
            peerKey: try publicKey(), patience: .seconds(patience), appendEntry: append, appendAttachment: appendAttachment,
            mayUnpair: mayUnpair, confirmPairing: confirm, startPairing: pair, window: window)
        var failures = 0
        var skipped = 0
        let wanted = section.map { $0.hasPrefix("§") ? $0 : "§" + $0 }
        let cases = side == "phone" ? PhoneConformance.cases : WearableConformance.cases
        for test in cases where wanted == nil || test.section == wanted {
            switch await test.run(against: target) {
            case .held: print("PASS \(test.section) \(test.name)")
            case .skipped(let reason):
                skipped += 1
                print("SKIP \(test.section) \(test.name): \(reason)")
            case .failed(let failure):
                failures += 1
                print("FAIL \(test.section) \(test.name): \(failure.message)")
            }
        }
        let skips = skipped == 0 ? "" : " (\(skipped) skipped)"
        print(failures == 0 ? "conformance: every case run held\(skips)" : "conformance: \(failures) case(s) failed\(skips)")
        if failures > 0 { throw ExitCode(1) }
    }

    /// Runs `command` with /bin/sh (`environment` added to this process's) and returns what it
    /// printed; fails unless it exits 0, naming the `option` it came from. Waits on a thread of
    /// its own: a pairing command waits for the exchange the suite's other task drives.
    private static func runShell(_ command: String, _ option: String, environment: [String: String] = [:]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runShellBlocking(command, option, environment: environment) })
            }
        }
    }

    private static func runShellBlocking(_ command: String, _ option: String, environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError("\(option) exited \(process.terminationStatus): \(command)\n\(printed)")
        }
        return printed
    }

    private func privateKey() throws -> Data {
        try Self.keyFile(key, "an X25519 private key")
    }

    /// The 32 bytes of a key file.
    private static func keyFile(_ path: String, _ what: String) throws -> Data {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot read the key file \(path): \(error.localizedDescription)")
        }
        guard bytes.count == 32 else {
            throw ValidationError("\(path) must hold exactly 32 bytes, \(what) (it holds \(bytes.count))")
        }
        return bytes
    }

    private func publicKey() throws -> Data {
        if let peerKeyFile { return try Self.keyFile(peerKeyFile, "an X25519 public key") }
        let digits = Array((peerKey ?? "").filter { !$0.isWhitespace })
        let bytes = stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
        guard digits.count == 64, bytes.count == 32 else {
            throw ValidationError("--peer-key must be the implementation's public key as 64 hex digits")
        }
        return Data(bytes)
    }
}
