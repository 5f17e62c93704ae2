public import RelayTransport

/// Opens the phone's connections to the wearable when the endpoint alone does not say how:
/// over Bluetooth, BlueZ connects the profile and hands the socket over (relay-phone's
/// `PhoneBluetooth`). `PhoneLink` calls it for every session and pairing attempt.
public protocol WearableConnector: Sendable {
    /// Opens one connection; throws a reason for people when the wearable cannot be reached.
    func connect() async throws -> FramedConnection
    /// The transport's name in status (`rfcomm`).
    var transportName: String { get }
    /// What the transport knows about the wearable now, for status (adapter, address, bonded, RSSI …).
    var statusValues: [String: ConnectorStatusValue] { get }
    /// How long a pairing keeps trying to connect after a failed attempt: a link bonded a
    /// moment ago may not take a connection at once. Zero: a failed connect ends the pairing.
    var pairingConnectWindow: Duration { get }
}

extension WearableConnector {
    /// A failed connect ends the pairing.
    public var pairingConnectWindow: Duration { .zero }
}

/// One value of ``WearableConnector/statusValues``.
public enum ConnectorStatusValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// A number.
    case int(Int)
}
