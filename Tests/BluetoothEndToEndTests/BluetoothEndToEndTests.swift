import Foundation
import Glibc
import RelayDBus
import RelayTestSupport
import Testing

/// The built agents over "Bluetooth": a private system bus with the bluetoothd mock, whose
/// ConnectProfile hands the two ends of a socketpair() to relay-wearable's and relay-phone's
/// profiles. Pairing (BlueZ bonding, then Relay's code), a notification mirrored and answered,
/// link loss, reconnection on Device1.Connected, status, unpairing, and the failures people meet.
@Suite(.serialized, .timeLimit(.minutes(3))) struct BluetoothEndToEndTests {
    @Test func pairsMirrorsAnswersAndReconnectsOverPassedDescriptors() async throws {
        try await withPrivateBus { bus in
            try await withDBusMock(["--template", BluetoothRig.template], owning: "org.bluez", on: bus) { _ in
                let rig = try await BluetoothRig.make(bus: bus)
                defer { rig.remove() }
                try await rig.mock("AddRelayAdapter", ["hci0", "relay-test"])
                try await rig.mock("AddHiddenWearable", ["hci0", BluetoothRig.wearableAddress, "bt-wearable"])
                try await rig.mock("AddPhone", ["hci0", BluetoothRig.phoneAddress])
                var announced = try await rig.announcements().makeAsyncIterator()

                let wearable = try rig.startWearable()
                let wearableReady = try await wearable.ready()
                // In rfcomm mode the wearable listens through BlueZ only: no loopback link socket.
                #expect(wearableReady.contains("Relay's Bluetooth profile on RFCOMM channel 22 of hci0"), "\(wearableReady)")
                #expect(!wearableReady.contains("link socket"), "\(wearableReady)")
                #expect(!FileManager.default.fileExists(atPath: rig.directory + "/w/wearable-link.sock"))
                let serverProfile = await next(&announced) { announcement($0) == "RegisterProfile" }
                #expect(serverProfile.map(arguments)?.last == "server")
                // A long backoff: only the Device1.Connected trigger can reconnect within the test's wait.
                try FileManager.default.createDirectory(atPath: rig.directory + "/config", withIntermediateDirectories: true)
                let config = rig.directory + "/config/phone.toml"
                try "[link]\nreconnect_min_seconds = 40\nreconnect_max_seconds = 60\n".write(toFile: config, atomically: true, encoding: .utf8)
                let phone = try rig.startPhone(["--config", config])
                defer { Task { await phone.stop(); await wearable.stop() } }
                let phoneReady = try await phone.ready()
                // Without `peer`, the phone names the Bluetooth wearable it looks for, not a socket.
                #expect(phoneReady.contains("at the bonded Bluetooth wearable offering Relay's service"), "\(phoneReady)")
                let clientProfile = await next(&announced) { announcement($0) == "RegisterProfile" }
                #expect(clientProfile.map(arguments)?.last == "client")
                let before = try await rig.status(phone: false)
                #expect(before["transport"] as? String == "rfcomm")
                #expect(before["rfcommChannel"] as? Int == 22 && before["profileRegistered"] as? Int == 1)
                #expect(before["adapter"] as? String == "hci0" && before["bluetoothConnected"] as? Int == 0)
                #expect(before["linkSocket"] == nil)
                let peerEndpoint = try await rig.status(phone: true)["peerEndpoint"] as? String ?? ""
                #expect(peerEndpoint.hasPrefix("the bonded Bluetooth wearable offering Relay's service"), "\(peerEndpoint)")

                // relayctl pair: discovery, then BlueZ's passkey (zero-padded) confirmed on both sides:
                // relayctl with --yes, the wearable with Select on its pairing screen; then Relay's code.
                _ = try await rig.control.call(
                    destination: "org.bluez", path: "/", interface: "org.bluez.Mock", method: "SetPasskey", arguments: [.uint32(12345)])
                let pairing = Task { try await rig.relayctl(["pair", "--yes", "--phone-socket", rig.phoneSocket, "--timeout", "20"]) }
                try await rig.until("the wearable shows BlueZ's passkey") {
                    let status = try await rig.status(phone: false)
                    return status["screen"] as? String == "pairing" && status["bluetoothPasskey"] != nil
                }
                let bonding = try await rig.status(phone: false)
                #expect(bonding["bluetoothPasskey"] as? String == "012345" && bonding["pairingCode"] as? String == "012345")
                #expect(try await rig.relayctl(["press", "select", "--control-socket", rig.wearableSocket]).status == 0)
                // Bonded: the passkey's screen is gone, and the next pairing screen is Relay's code.
                try await rig.until("the wearable shows the Relay code") {
                    let status = try await rig.status(phone: false)
                    return status["screen"] as? String == "pairing" && status["bluetoothPasskey"] == nil
                }
                let relayCode = try await rig.status(phone: false)["pairingCode"] as? String ?? "?"
                #expect(try await rig.relayctl(["press", "select", "--control-socket", rig.wearableSocket]).status == 0)
                let paired = try await pairing.value
                #expect(paired.status == 0, "\(paired.output)")
                for step in [
                    "adapter hci0 (00:01:02:03:04:05) is on", "Found bt-wearable (\(BluetoothRig.wearableAddress))",
                    "Bluetooth passkey: 012 345", "Bonded with bt-wearable", "Code: \(relayCode.prefix(3)) \(relayCode.dropFirst(3))",
                    "Paired with bt-wearable",
                ] {
                    #expect(paired.output.contains(step), "missing '\(step)' in:\n\(paired.output)")
                }
                // The passkey relayctl printed is the one the wearable showed.
                let printedPasskey = paired.output.components(separatedBy: "Bluetooth passkey: ").dropFirst().first?.prefix(7)
                    .replacingOccurrences(of: " ", with: "")
                #expect(printedPasskey == bonding["bluetoothPasskey"] as? String)
                #expect(await wearable.printed("passkey 012345: accepted"))

                try await rig.until("the session is up") { try await rig.status(phone: true)["link"] as? String == "connected" }
                let status = try await rig.status(phone: true)
                #expect(status["transport"] as? String == "rfcomm")
                #expect(status["adapter"] as? String == "hci0")
                #expect(status["deviceAddress"] as? String == BluetoothRig.wearableAddress)
                #expect(status["deviceName"] as? String == "bt-wearable")
                #expect(status["bonded"] as? Int == 1 && status["trusted"] as? Int == 1 && status["bluetoothConnected"] as? Int == 1)
                #expect(status["rssi"] as? Int == -79)
                // The connected link's own RSSI comes through HCI, which the mock's hci0 is not: the phone
                // shows BlueZ's property and says why HCI gave none (here: no AF_BLUETOOTH in the kernel).
                #expect(status["linkQualitySource"] as? String == "bluez")
                let hciUnavailable = status["hciRSSIUnavailable"] as? String ?? ""
                if kernelHasBluetoothSockets() {
                    #expect(!hciUnavailable.isEmpty)
                } else {
                    #expect(hciUnavailable.contains("the kernel has no Bluetooth sockets (AF_BLUETOOTH)"), "\(hciUnavailable)")
                }
                let text = try await rig.relayctl(["status", "--phone", "--control-socket", rig.phoneSocket]).output
                #expect(text.contains("rssi: -79 dBm") && text.contains("linkQualitySource: bluez"), "\(text)")
                // The wearable's side: the phone's device on the profile's channel.
                try await rig.until("the wearable's session is up") { try await rig.status(phone: false)["link"] as? String == "connected" }
                let wearableStatus = try await rig.status(phone: false)
                #expect(wearableStatus["transport"] as? String == "rfcomm" && wearableStatus["bluetoothConnected"] as? Int == 1)
                #expect(wearableStatus["deviceAddress"] as? String == BluetoothRig.phoneAddress)

                // A notification while locked reaches the wearable; its answer comes back over the same socket.
                #expect(try await rig.relayctl(["lock", "--control-socket", rig.phoneSocket]).status == 0)
                let client = try await bus.connect()
                var invoked = try await client.signals(
                    matching: .signal(interface: "org.freedesktop.Notifications", member: "ActionInvoked")).makeAsyncIterator()
                let id = try await client.call(
                    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "Notify",
                    arguments: [
                        .string("bt-test"), .uint32(0), .string(""), .string("Over Bluetooth"), .string("through a passed descriptor"),
                        .array(["yes", "Yes"]), .dictionary(keySignature: .string, valueSignature: .variant, entries: []), .int32(0),
                    ]
                ).decode(0, as: UInt32.self)
                var shownID: Int?
                try await rig.until("the wearable shows the notification") {
                    let listed = try await rig.relayctl(["notifications", "--json", "--control-socket", rig.wearableSocket])
                    let object = try? JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any]
                    let shown = (object?["notifications"] as? [[String: Any]])?.first { $0["title"] as? String == "Over Bluetooth" }
                    shownID = shown?["id"] as? Int
                    return shownID != nil
                }
                let responded = try await rig.relayctl(["respond", "\(shownID ?? 0)", "yes", "--control-socket", rig.wearableSocket])
                #expect(responded.status == 0, "\(responded.output)")
                let heard = await next(&invoked) { $0.arguments.first == .uint32(id) }
                #expect(heard?.arguments.last == .string("yes"))

                // Link loss: bluetoothd's sockets shut down; both agents notice.
                try await rig.mock("DropLinks", [])
                try await rig.until("the phone notices the loss") { try await rig.status(phone: true)["link"] as? String == "disconnected" }
                // The wearable comes back into range: Device1.Connected, and the phone reconnects at once
                // (its backoff is 40 s).
                try await rig.mock("ConnectDevice", ["hci0", BluetoothRig.wearableAddress])
                #expect(await phone.printed("is connected; connecting the link now"))
                try await rig.until("the session is up again", timeout: .seconds(20)) {
                    try await rig.status(phone: true)["link"] as? String == "connected"
                }

                // Unpairing removes the bond too.
                let unpaired = try await rig.relayctl(
                    ["unpair", "--phone-socket", rig.phoneSocket, "--wearable-socket", rig.wearableSocket])
                #expect(unpaired.status == 0, "\(unpaired.output)")
                #expect(unpaired.output.contains("bluetooth: removed the bond with bt-wearable (\(BluetoothRig.wearableAddress))"))
                let objects = try await rig.control.call(
                    destination: "org.bluez", path: "/", interface: "org.freedesktop.DBus.ObjectManager", method: "GetManagedObjects")
                #expect(!"\(objects)".contains("dev_AA_BB_CC_DD_EE_01"))
            }
        }
    }

    @Test func saysWhatIsWrongWithBluetooth() async throws {
        try await withPrivateBus { bus in
            let rig = try await BluetoothRig.make(bus: bus)
            defer { rig.remove() }
            // No bluetoothd on the system bus and no AF_BLUETOOTH (this machine's kernel): nothing
            // to wait for, so each agent says what is missing and ends.
            if !kernelHasBluetoothSockets() {
                for name in ["relay-phone", "relay-wearable"] {
                    let agent = try name == "relay-phone" ? rig.startPhone() : rig.startWearable()
                    #expect(await agent.lines.wait { $0.last == AgentProcess.ended })
                    #expect(await agent.process.wait() != 0)
                    let said = agent.lines.elements.joined(separator: "\n")
                    #expect(said.contains("bluetoothd (org.bluez) is not on the system bus"), "\(said)")
                    #expect(said.contains("--transport loopback"), "\(said)")
                }
            }
            try await withDBusMock(["--template", BluetoothRig.template], owning: "org.bluez", on: bus) { _ in
                // bluetoothd without an adapter: the phone says so once and waits for one.
                let running = try rig.startPhone()
                defer { Task { await running.stop() } }
                #expect(await running.lines.wait { $0.contains { $0.contains("bluetoothd reports no adapter") && $0.hasSuffix("waiting for it") } })
                // So does the wearable, and SIGTERM (systemctl stop) ends that wait cleanly.
                let waiting = try rig.startWearable()
                #expect(await waiting.lines.wait { $0.contains { $0.contains("bluetoothd reports no adapter") && $0.hasSuffix("waiting for it") } })
                await waiting.stop()
                #expect(await waiting.process.wait() == 0, "\(waiting.lines.elements.suffix(5))")
                // An adapter, but no wearable in range: relayctl gives up after --timeout.
                try await rig.mock("AddRelayAdapter", ["hci0", "relay-test"])
                _ = try await running.ready()
                #expect(running.lines.elements.filter { $0.contains("bluetoothd reports no adapter") }.count == 1)
                let lonely = try await rig.relayctl(["pair", "--yes", "--phone-socket", rig.phoneSocket, "--timeout", "1"])
                #expect(lonely.status == 1)
                #expect(lonely.output.contains("was not found within 1 seconds"), "\(lonely.output)")
                // A "no" on either side rejects the bond. Here first (relayctl's standard input is
                // empty: "no"): bluetoothd cancels the wearable's request, and its screen lets it go.
                try await rig.mock("AddRelayWearable", ["hci0", BluetoothRig.wearableAddress, "bt-wearable"])
                try await rig.mock("AddPhone", ["hci0", BluetoothRig.phoneAddress])
                let wearable = try rig.startWearable()
                defer { Task { await wearable.stop() } }
                _ = try await wearable.ready()
                let refused = try await rig.relayctl(["pair", "--phone-socket", rig.phoneSocket, "--timeout", "5"])
                #expect(refused.status == 1)
                #expect(refused.output.contains("Bluetooth pairing was rejected"), "\(refused.output)")
                #expect(await wearable.printed("passkey 123456: cancelled by bluetoothd"))
                try await rig.until("the wearable takes the passkey down") {
                    let status = try await rig.status(phone: false)
                    return status["screen"] as? String != "pairing" && status["bluetoothPasskey"] == nil
                }
                // Then on the wearable: relayctl says yes, Back on the wearable's passkey says no.
                let pairing = Task { try await rig.relayctl(["pair", "--yes", "--phone-socket", rig.phoneSocket, "--timeout", "5"]) }
                try await rig.until("the wearable shows BlueZ's passkey") {
                    try await rig.status(phone: false)["bluetoothPasskey"] as? String == "123456"
                }
                #expect(try await rig.relayctl(["press", "back", "--control-socket", rig.wearableSocket]).status == 0)
                let rejected = try await pairing.value
                #expect(rejected.status == 1)
                #expect(rejected.output.contains("Does the wearable show 123 456? yes (--yes)"), "\(rejected.output)")
                #expect(rejected.output.contains("Bluetooth pairing was rejected"), "\(rejected.output)")
                #expect(await wearable.printed("passkey 123456: rejected"))
                let after = try await rig.status(phone: false)
                #expect(after["screen"] as? String != "pairing" && after["link"] as? String == "unpaired")

                // "Just works" (no passkey on either side) is refused at once: nothing would show
                // that the device is the phone in the person's hand.
                _ = try await rig.control.call(
                    destination: "org.bluez", path: "/", interface: "org.bluez.Mock", method: "SetJustWorks", arguments: [.boolean(true)])
                let unallowed = try await rig.relayctl(["pair", "--yes", "--phone-socket", rig.phoneSocket, "--timeout", "5"])
                #expect(unallowed.status == 1)
                #expect(unallowed.output.contains("Bluetooth pairing was rejected"), "\(unallowed.output)")
                #expect(await wearable.printed("bonding request from \(BluetoothRig.phoneAddress): refused, no passkey to compare"))
                #expect(try await rig.status(phone: false)["screen"] as? String != "pairing")
            }
        }
    }
}

/// Whether the kernel offers raw HCI sockets (this test machine does not).
private func kernelHasBluetoothSockets() -> Bool {
    let descriptor = socket(PF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1)  // BTPROTO_HCI
    let code = errno
    if descriptor >= 0 { close(descriptor) }
    return descriptor >= 0 || (code != EAFNOSUPPORT && code != EPROTONOSUPPORT)
}

private func announcement(_ message: DBusMessage) -> String {
    if case .string(let name)? = message.arguments.first { return name }
    return ""
}

private func arguments(_ message: DBusMessage) -> [String] {
    guard message.arguments.count > 1, case .array(_, let values) = message.arguments[1] else { return [] }
    return values.map { if case .string(let text) = $0.unwrappingVariant { text } else { "\($0)" } }
}
