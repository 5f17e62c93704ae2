import ArgumentParser
import Foundation
import RelayBluetooth
import RelayControl

/// `relayctl pair`: pairs relay-phone with relay-wearable (Docs/PAIRING.md).
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair the phone with the wearable: compare a 6-digit code on both and confirm.",
        discussion: """
            relay-phone connects to relay-wearable in pairing mode (Noise XX). Both show the same \
            6-digit code: the wearable on its screen, relayctl here. Press Select on the wearable \
            if the codes match, and answer yes here. Afterwards each agent accepts only the \
            other. A wearable that is already paired refuses: run `relayctl unpair` first.

            When relay-phone runs with --transport rfcomm, Bluetooth bonding comes first: the \
            adapter is checked, the wearable found (by Relay's service UUID, or --address), and \
            BlueZ's passkey shown here and on the wearable and confirmed on both; the wearable \
            is then trusted (Docs/BLUETOOTH.md).
            """)

    @Flag(help: "Answer yes without asking (for scripts that check the code themselves).")
    var yes = false

    @Option(name: .customLong("phone-socket"), help: "relay-phone's control socket, when not the default.")
    var phoneSocket: String?

    @Option(help: "Bluetooth: the wearable's address, instead of looking for Relay's service.")
    var address: String?

    @Option(help: "Bluetooth: the adapter (hci0 or its address); default: the first.")
    var adapter: String?

    @Option(help: "Bluetooth: seconds to look for the wearable.")
    var timeout: Int = 30

    func validate() throws {
        if let address, BluetoothAddress(address) == nil {
            throw ValidationError("--address \(address) is not a Bluetooth address like 01:23:45:67:89:AB")
        }
        guard (1...600).contains(timeout) else { throw ValidationError("--timeout takes 1 to 600 seconds") }
    }

    func run() async throws {
        let control = ControlOptions(socket: phoneSocket)
        let status = try control.send(PhoneRequest.status)
        if case .string("rfcomm")? = status.values["transport"] {
            do {
                _ = try await BluetoothBonding(
                    adapterName: adapter, address: address.flatMap { BluetoothAddress($0) }, timeout: timeout, assumeYes: yes
                ).run()
            } catch {
                BluetoothBonding.say("relayctl: \(error)")
                throw ExitCode.failure
            }
        }
        let offer = try control.send(PhoneRequest.pair, timeoutSeconds: 70)
        let code = offer.values["code"].flatMap { if case .string(let code) = $0 { code } else { nil } } ?? "?"
        let name = offer.values["wearable"].map(\.description) ?? "the wearable"
        let fingerprint = offer.values["fingerprint"].map(\.description) ?? "?"
        print("Pairing with \(name) (key \(fingerprint)).")
        print("Code: \(code.prefix(3)) \(code.dropFirst(3))")
        print("Check that the wearable shows the same code, and press Select on it.")
        let answer = yes ? true : Self.ask("Does the wearable show \(code)? [y/N] ")
        if yes { print("Does the wearable show \(code)? yes (--yes)") }
        guard let accepted = answer else {
            // Nobody answered (standard input closed, as under a script): the pairing is called
            // off, and that is not the codes' fault.
            _ = try? control.send(PhoneRequest.pairConfirm(accepted: false), timeoutSeconds: 130)
            FileHandle.standardError.write(Data("\nrelayctl: no answer: use --yes, or answer on a terminal; the pairing was called off\n".utf8))
            throw ExitCode.failure
        }
        let result = try control.send(
            PhoneRequest.pairConfirm(accepted: accepted), timeoutSeconds: 130)
        let partner = result.values["partnerFingerprint"].map(\.description) ?? fingerprint
        print("Paired with \(name) (key \(partner)); each side now accepts only the other.")
    }

    /// The answer to a yes/no question on standard input; `nil` when it ends unanswered.
    private static func ask(_ question: String) -> Bool? {
        // Unbuffered, so the question is on screen before relayctl waits for the answer.
        FileHandle.standardOutput.write(Data(question.utf8))
        guard let answer = readLine() else { return nil }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// `relayctl unpair`: both agents forget each other.
struct UnpairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpair",
        abstract: "Forget the pairing on the phone and on the wearable (each that is running), and the Bluetooth bond.")

    @Option(name: .customLong("phone-socket"), help: "relay-phone's control socket, when not the default.")
    var phoneSocket: String?

    @Option(name: .customLong("wearable-socket"), help: "relay-wearable's control socket, when not the default.")
    var wearableSocket: String?

    func run() async throws {
        var failures: [String] = []
        // Which device is bonded, asked while relay-phone still knows it.
        var bond: (adapter: String?, address: BluetoothAddress?)?
        if let status = try? ControlOptions(socket: phoneSocket).send(PhoneRequest.status),
            case .string("rfcomm")? = status.values["transport"]
        {
            var address: BluetoothAddress?
            if case .string(let text)? = status.values["deviceAddress"] { address = BluetoothAddress(text) }
            var adapter: String?
            if case .string(let name)? = status.values["adapter"] { adapter = name }
            bond = (adapter, address)
        }
        // The agents before the bond: relay-phone tells the wearable over the link, and removing
        // the bond first would drop the link under that message.
        var unpaired = 0
        let requests: [(any ControlRequest, String?)] = [(PhoneRequest.unpair, phoneSocket), (WearableRequest.unpair, wearableSocket)]
        for (request, socket) in requests {
            do {
                _ = try ControlOptions(socket: socket).send(request)
                print("\(type(of: request).agent): unpaired")
                unpaired += 1
            } catch {
                failures.append("\(error)")
            }
        }
        if let bond {
            do {
                if let removed = try await BluetoothBonding.removeBond(adapterName: bond.adapter, address: bond.address) {
                    print("bluetooth: removed the bond with \(removed.name) (\(removed.address))")
                } else {
                    print("bluetooth: no bond to remove")
                }
            } catch {
                failures.append("bluetooth: \(error)")
            }
        }
        // One agent forgetting is progress (the other may be another device, out of reach); say
        // what the rest needs, and fail only when no agent forgot anything.
        for failure in failures { FileHandle.standardError.write(Data("relayctl: \(failure)\n".utf8)) }
        if unpaired == 0 { throw ExitCode.failure }
    }
}
