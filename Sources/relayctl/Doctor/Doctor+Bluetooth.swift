import RelayBluetooth
import RelayDBus

extension Doctor {
    /// The kernel's Bluetooth sockets, bluetoothd, the adapter, and a bonded Relay partner.
    func bluetooth(adapter name: String?) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if RFCOMMAddress.kernelSupportsBluetooth() {
            findings.append(.ok("bluetooth", "kernel", "Bluetooth and RFCOMM sockets are available"))
        } else {
            findings.append(
                .problem(
                    "bluetooth", "kernel", "the kernel offers no Bluetooth or RFCOMM sockets (AF_BLUETOOTH)",
                    fix: "load them: sudo modprobe bluetooth rfcomm (a board's kernel needs CONFIG_BT and CONFIG_BT_RFCOMM)"))
        }
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: .system)
        } catch {
            findings.append(.problem("bluetooth", "system bus", "the system bus cannot be reached (\(error))", fix: "start it: sudo systemctl start dbus"))
            return findings
        }
        defer { Task { await connection.close() } }
        let client = BlueZClient(connection: connection)
        guard (try? await client.isRunning()) == true else {
            findings.append(
                .problem(
                    "bluetooth", "bluetoothd", "bluetoothd (org.bluez) is not on the system bus",
                    fix: "start it: sudo systemctl enable --now bluetooth (Debian's bluez package)"))
            return findings
        }
        findings.append(.ok("bluetooth", "bluetoothd", "org.bluez is on the system bus"))
        guard let objects = try? await client.objects(), let adapter = objects.adapter(named: name) else {
            findings.append(
                .problem(
                    "bluetooth", "adapter", name.map { "bluetoothd has no adapter \($0)" } ?? "bluetoothd reports no adapter",
                    fix: name == nil ? "plug one in or unblock it: rfkill unblock bluetooth" : "check `bluetoothctl list` and bluetooth.adapter"))
            return findings
        }
        if adapter.powered {
            findings.append(.ok("bluetooth", "adapter", "\(adapter.name) (\(adapter.address)) is on"))
        } else {
            findings.append(.problem("bluetooth", "adapter", "\(adapter.name) (\(adapter.address)) is off", fix: "turn it on: bluetoothctl power on"))
        }
        let partners = objects.bondedRelayDevices(on: adapter)
        if partners.isEmpty {
            findings.append(
                .problem(
                    "bluetooth", "bonded partner", "no bonded device offers Relay's service on \(adapter.name)",
                    fix: "pair the boards: relayctl pair (on the phone board, with relay-wearable running on the wearable)"))
        } else {
            let names = partners.map { "\($0.name) (\($0.address))\($0.connected ? ", connected" : "")" }
            findings.append(.ok("bluetooth", "bonded partner", names.joined(separator: "; ")))
        }
        return findings
    }
}
