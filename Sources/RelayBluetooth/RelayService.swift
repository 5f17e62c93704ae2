/// Relay's Bluetooth service: the 128-bit UUID both agents register with BlueZ, and the RFCOMM
/// channel the wearable's server listens on (Docs/PROTOCOL.md §2, Docs/BLUETOOTH.md).
public enum RelayService {
    /// Relay's service class UUID, in BlueZ's lower-case written form. Random (version 4), so
    /// that no other service's record can be mistaken for Relay's.
    public static let uuid = "bab20998-bcad-409a-b8b1-5cc835f114af"
    /// The RFCOMM channel the wearable asks BlueZ to listen on. Without a channel BlueZ opens
    /// no RFCOMM server for a custom UUID; the phone finds it in the SDP record, or takes it from
    /// `rfcomm:ADDRESS/CHANNEL` for the raw-socket fallback.
    public static let defaultChannel: UInt16 = 22
    /// The service name in the SDP record.
    public static let name = "Relay"
}
