import CRelayShim

/// The signal strength of the connected link to a device, read from the adapter's HCI socket as
/// `hcitool rssi` does (HCIGETCONNINFO for the ACL link's handle, then the Read RSSI command).
/// Unlike `Device1.RSSI`, which BlueZ fills only during discovery, this works while connected.
public enum LinkQuality {
    /// The kernel's HCI device index in an adapter name (`hci0` → 0); `nil` unless `hciN` with
    /// N below 0xFFFF (the kernel's "no device").
    public static func deviceIndex(ofAdapter name: String) -> Int32? {
        guard name.hasPrefix("hci") else { return nil }
        let digits = name.dropFirst(3)
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let index = Int32(digits), index < 0xFFFF
        else { return nil }
        return index
    }

    /// The RSSI in dBm of the ACL link to `device` on `adapter` (`hciN`). Blocks for at most about
    /// a second while the controller answers, so call it from a thread that may wait.
    public static func readRSSI(adapter: String, device: BluetoothAddress) throws(LinkQualityError) -> Int {
        guard let index = deviceIndex(ofAdapter: adapter) else { throw .invalidAdapterName(adapter) }
        var rssi: Int8 = 0
        // The shim reads errno itself, right after the failing call, and returns it negated.
        let result = relay_hci_read_rssi(index, device.description, &rssi)
        guard result == 0 else { throw LinkQualityError(code: -result, adapter: adapter, device: device) }
        return Int(rssi)
    }
}
