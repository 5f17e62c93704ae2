/// Where an agent listens or connects.
///
/// Written as `unix:PATH`, `tcp:HOST:PORT` or `rfcomm:AA:BB:CC:DD:EE:FF/CHANNEL` in
/// configuration files and on the command line.
public enum TransportEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A Unix-domain stream socket (loopback mode).
    case unix(path: String)
    /// TCP on a loopback address (loopback mode); other addresses are refused.
    case tcp(host: String, port: Int)
    /// Bluetooth RFCOMM to a device address and channel.
    case rfcomm(address: String, channel: UInt8)

    /// Parses the written form.
    public init(parsing text: String) throws(TransportError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw .invalidEndpoint(text, "unix: needs a socket path") }
            self = .unix(path: path)
        } else if text.hasPrefix("tcp:") {
            let rest = text.dropFirst(4)
            guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
                (1...65_535).contains(port)
            else { throw .invalidEndpoint(text, "tcp: needs HOST:PORT with a port of 1–65535") }
            var host = String(rest[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            self = .tcp(host: host, port: port)
        } else if text.hasPrefix("rfcomm:") {
            let rest = text.dropFirst(7)
            guard let slash = rest.lastIndex(of: "/"), let channel = UInt8(rest[rest.index(after: slash)...]),
                (1...30).contains(channel)
            else { throw .invalidEndpoint(text, "rfcomm: needs ADDRESS/CHANNEL with a channel of 1–30") }
            let address = String(rest[..<slash])
            guard BluetoothAddressText.isValid(address) else {
                throw .invalidEndpoint(text, "'\(address)' is not a Bluetooth address like 01:23:45:67:89:AB")
            }
            self = .rfcomm(address: address.uppercased(), channel: channel)
        } else {
            throw .invalidEndpoint(text, "use unix:PATH, tcp:HOST:PORT or rfcomm:ADDRESS/CHANNEL")
        }
    }

    /// The written form.
    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case .rfcomm(let address, let channel): "rfcomm:\(address)/\(channel)"
        }
    }

    /// Whether a TCP host is a loopback address; Relay's TCP transport is for one machine only.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// Bluetooth device addresses in their usual written form.
public enum BluetoothAddressText {
    /// Whether `text` is six colon-separated pairs of hexadecimal digits.
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}
