import ArgumentParser
import Foundation
import RelayControl

/// `relayctl pair`: pairs relay-phone with relay-wearable (Docs/PAIRING.md).
struct PairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair the phone with the wearable: compare a 6-digit code on both and confirm.",
        discussion: """
            relay-phone connects to relay-wearable in pairing mode (Noise XX). Both show the same \
            6-digit code: the wearable on its screen, relayctl here. Press Select on the wearable \
            if the codes match, and answer yes here. Afterwards each agent accepts only the \
            other. A wearable that is already paired refuses: run `relayctl unpair` first.
            """)

    @Flag(help: "Answer yes without asking (for scripts that check the code themselves).")
    var yes = false

    @Option(name: .customLong("phone-socket"), help: "relay-phone's control socket, when not the default.")
    var phoneSocket: String?

    func run() throws {
        let control = ControlOptions(socket: phoneSocket)
        let offer = try control.send(ControlRequest(command: "pair"), to: .phone, timeoutSeconds: 70)
        let code = offer.values["code"].flatMap { if case .string(let code) = $0 { code } else { nil } } ?? "?"
        let name = offer.values["wearable"].map(\.description) ?? "the wearable"
        let fingerprint = offer.values["fingerprint"].map(\.description) ?? "?"
        print("Pairing with \(name) (key \(fingerprint)).")
        print("Code: \(code.prefix(3)) \(code.dropFirst(3))")
        print("Check that the wearable shows the same code, and press Select on it.")
        let accepted = yes || Self.ask("Does the wearable show \(code)? [y/N] ")
        if yes { print("Does the wearable show \(code)? yes (--yes)") }
        let result = try control.send(
            ControlRequest(command: "pair-confirm", action: accepted ? "accept" : "reject"), to: .phone, timeoutSeconds: 130)
        let partner = result.values["partnerFingerprint"].map(\.description) ?? fingerprint
        print("Paired with \(name) (key \(partner)); each side now accepts only the other.")
    }

    private static func ask(_ question: String) -> Bool {
        // Unbuffered, so the question is on screen before relayctl waits for the answer.
        FileHandle.standardOutput.write(Data(question.utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// `relayctl unpair`: both agents forget each other.
struct UnpairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpair",
        abstract: "Forget the pairing on the phone and on the wearable (each that is running).")

    @Option(name: .customLong("phone-socket"), help: "relay-phone's control socket, when not the default.")
    var phoneSocket: String?

    @Option(name: .customLong("wearable-socket"), help: "relay-wearable's control socket, when not the default.")
    var wearableSocket: String?

    func run() throws {
        var failures: [String] = []
        for (agent, socket) in [(ControlAgent.phone, phoneSocket), (.wearable, wearableSocket)] {
            do {
                _ = try ControlOptions(socket: socket).send(ControlRequest(command: "unpair"), to: agent)
                print("\(agent.executable): unpaired")
            } catch {
                failures.append("\(error)")
            }
        }
        // One side forgetting is progress; say what the other needs.
        for failure in failures { print("relayctl: \(failure)") }
        if failures.count == 2 { throw ExitCode.failure }
    }
}
