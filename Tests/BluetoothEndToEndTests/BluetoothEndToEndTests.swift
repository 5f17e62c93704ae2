import Foundation
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
                _ = try await wearable.ready()
                let serverProfile = await next(&announced) { announcement($0) == "RegisterProfile" }
                #expect(serverProfile.map(arguments)?.last == "server")
                // A long backoff: only the Device1.Connected trigger can reconnect within the test's wait.
                try FileManager.default.createDirectory(atPath: rig.directory + "/config", withIntermediateDirectories: true)
                let config = rig.directory + "/config/phone.toml"
                try "[link]\nreconnect_min_seconds = 40\nreconnect_max_seconds = 60\n".write(toFile: config, atomically: true, encoding: .utf8)
                let phone = try rig.startPhone(["--config", config])
                defer { Task { await phone.stop(); await wearable.stop() } }
                _ = try await phone.ready()
                let clientProfile = await next(&announced) { announcement($0) == "RegisterProfile" }
                #expect(clientProfile.map(arguments)?.last == "client")

                // relayctl pair: discovery, bonding with the passkey confirmed on both sides, then Relay's code.
                let pairing = Task { try await rig.relayctl(["pair", "--yes", "--phone-socket", rig.phoneSocket, "--timeout", "20"]) }
                try await rig.until("the wearable shows the Relay code") { try await rig.status(phone: false)["screen"] as? String == "pairing" }
                let pressed = try await rig.relayctl(["press", "select", "--control-socket", rig.wearableSocket])
                #expect(pressed.status == 0)
                let paired = try await pairing.value
                #expect(paired.status == 0, "\(paired.output)")
                for step in [
                    "adapter hci0 (00:01:02:03:04:05) is on", "Found bt-wearable (\(BluetoothRig.wearableAddress))",
                    "Bluetooth passkey: 123 456", "Bonded with bt-wearable", "Code: ", "Paired with bt-wearable",
                ] {
                    #expect(paired.output.contains(step), "missing '\(step)' in:\n\(paired.output)")
                }
                #expect(await wearable.printed("passkey 123456: accepted"))

                try await rig.until("the session is up") { try await rig.status(phone: true)["link"] as? String == "connected" }
                let status = try await rig.status(phone: true)
                #expect(status["transport"] as? String == "rfcomm")
                #expect(status["adapter"] as? String == "hci0")
                #expect(status["deviceAddress"] as? String == BluetoothRig.wearableAddress)
                #expect(status["deviceName"] as? String == "bt-wearable")
                #expect(status["bonded"] as? Int == 1 && status["trusted"] as? Int == 1 && status["bluetoothConnected"] as? Int == 1)
                #expect(status["rssi"] as? Int == -79)

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
            // No bluetoothd on the system bus (and, on machines like this one, no AF_BLUETOOTH).
            for name in ["relay-phone", "relay-wearable"] {
                let agent = try name == "relay-phone" ? rig.startPhone() : rig.startWearable()
                #expect(await agent.lines.wait { $0.last == AgentProcess.ended })
                #expect(await agent.process.wait() != 0)
                let said = agent.lines.elements.joined(separator: "\n")
                #expect(said.contains("bluetoothd (org.bluez) is not on the system bus"), "\(said)")
                #expect(said.contains("--transport loopback"), "\(said)")
            }
            try await withDBusMock(["--template", BluetoothRig.template], owning: "org.bluez", on: bus) { _ in
                // bluetoothd without an adapter.
                let phone = try rig.startPhone()
                #expect(await phone.lines.wait { $0.last == AgentProcess.ended })
                #expect(phone.lines.elements.joined().contains("bluetoothd reports no adapter"))
                // An adapter, but no wearable in range: relayctl gives up after --timeout.
                try await rig.mock("AddRelayAdapter", ["hci0", "relay-test"])
                let running = try rig.startPhone()
                defer { Task { await running.stop() } }
                _ = try await running.ready()
                let lonely = try await rig.relayctl(["pair", "--yes", "--phone-socket", rig.phoneSocket, "--timeout", "1"])
                #expect(lonely.status == 1)
                #expect(lonely.output.contains("was not found within 1 seconds"), "\(lonely.output)")
                // A wearable whose passkey nobody confirms (relayctl's standard input is empty: "no").
                try await rig.mock("AddRelayWearable", ["hci0", BluetoothRig.wearableAddress, "bt-wearable"])
                let refused = try await rig.relayctl(["pair", "--phone-socket", rig.phoneSocket, "--timeout", "5"])
                #expect(refused.status == 1)
                #expect(refused.output.contains("Bluetooth pairing was rejected"), "\(refused.output)")
            }
        }
    }
}

private func announcement(_ message: DBusMessage) -> String {
    if case .string(let name)? = message.arguments.first { return name }
    return ""
}

private func arguments(_ message: DBusMessage) -> [String] {
    guard message.arguments.count > 1, case .array(_, let values) = message.arguments[1] else { return [] }
    return values.map { if case .string(let text) = $0.unwrappingVariant { text } else { "\($0)" } }
}
