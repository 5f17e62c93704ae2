/// What the phone's status says about the link's signal strength: the RSSI through HCI while the
/// link is connected and readable, else BlueZ's `Device1.RSSI` (filled during discovery), and
/// why HCI gave none.
public struct LinkQualityReport: Sendable, Hashable {
    /// Where ``rssi`` came from.
    public enum Source: String, Sendable, Hashable {
        /// The controller's Read RSSI for the connected link.
        case hci
        /// BlueZ's `Device1.RSSI` property.
        case bluez
        /// Neither had a value.
        case none
    }

    /// The signal strength in dBm, when either source had one.
    public var rssi: Int?
    /// Which source ``rssi`` came from.
    public var source: Source
    /// Why HCI gave no reading (`nil` when it did).
    public var hciUnavailable: String?

    /// Chooses between the two readings. `hci` is `nil` when it was not tried because BlueZ says
    /// the device is not connected.
    public init(hci: Result<Int, LinkQualityError>?, bluezRSSI: Int?) {
        switch hci {
        case .success(let value):
            rssi = value
            source = .hci
            hciUnavailable = nil
        case .failure(let error):
            rssi = bluezRSSI
            source = bluezRSSI == nil ? .none : .bluez
            hciUnavailable = error.description
        case nil:
            rssi = bluezRSSI
            source = bluezRSSI == nil ? .none : .bluez
            hciUnavailable = "the wearable's Bluetooth link is not connected, so there is no link RSSI to read"
        }
    }

    /// Reads the connected link's RSSI through HCI when `connected`, and chooses between it and
    /// BlueZ's property.
    public static func read(adapter: String, device: BluetoothAddress, connected: Bool, bluezRSSI: Int?) -> LinkQualityReport {
        guard connected else { return LinkQualityReport(hci: nil, bluezRSSI: bluezRSSI) }
        let hci = Result { () throws(LinkQualityError) -> Int in try LinkQuality.readRSSI(adapter: adapter, device: device) }
        return LinkQualityReport(hci: hci, bluezRSSI: bluezRSSI)
    }
}
