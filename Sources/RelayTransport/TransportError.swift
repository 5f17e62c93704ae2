public import RelaySystem

/// Why a connection could not be made or kept. Each case tells a person what to do.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint's written form is wrong.
    case invalidEndpoint(String, String)
    /// A TCP endpoint that is not on this machine.
    case notLoopback(String)
    /// The kernel has no Bluetooth sockets.
    case bluetoothUnavailable(String)
    /// Connecting failed.
    case connectFailed(TransportEndpoint, String)
    /// An RFCOMM connect found the channel busy: RFCOMM carries one connection per channel
    /// between two devices, and the previous one is still open or closing (`EBUSY`).
    case channelBusy(TransportEndpoint)
    /// Listening failed.
    case listenFailed(TransportEndpoint, String)
    /// A system call failed.
    case system(SystemError)

    /// A message for people.
    public var description: String {
        switch self {
        case .invalidEndpoint(let text, let hint):
            return "invalid endpoint '\(text)': \(hint)"
        case .notLoopback(let host):
            return "the TCP transport only connects agents on one machine, and '\(host)' is not a loopback address; "
                + "use 127.0.0.1 or ::1, or Bluetooth between two boards"
        case .bluetoothUnavailable(let reason):
            return "Bluetooth is not available: \(reason); use --transport loopback"
        case .connectFailed(let endpoint, let reason):
            return "cannot connect to \(endpoint): \(reason)"
        case .channelBusy(let endpoint):
            return "cannot connect to \(endpoint): this device's previous connection to that channel is still open or "
                + "closing (device busy); try again in a moment"
        case .listenFailed(let endpoint, let reason):
            return "cannot listen on \(endpoint): \(reason)"
        case .system(let error):
            return error.description
        }
    }
}
