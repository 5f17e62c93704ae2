/// A Bluetooth device address (`BD_ADDR`), written `01:23:45:67:89:AB`.
public struct BluetoothAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The six bytes in written order: `bytes[0]` is the first pair (the most significant).
    public let bytes: [UInt8]

    /// Parses six colon-separated pairs of hexadecimal digits, in either case; `nil` otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, part.allSatisfy(\.isHexDigit), let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    /// The address whose written form is `bytes`, most significant first; `nil` unless six bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// Upper-case written form, as BlueZ reports it.
    public var description: String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: ":")
    }

    /// The address in a BlueZ device's object path (`/org/bluez/hci0/dev_01_23_45_67_89_AB`);
    /// `nil` when the path's last element is not of that form.
    public init?(devicePath: String) {
        guard let last = devicePath.split(separator: "/").last, last.hasPrefix("dev_") else { return nil }
        let pairs = last.dropFirst(4).split(separator: "_", omittingEmptySubsequences: false)
        guard pairs.count == 6 else { return nil }
        self.init(pairs.joined(separator: ":"))
    }

    /// The last element of BlueZ's object path for this device: `dev_01_23_45_67_89_AB`.
    public var objectPathElement: String {
        "dev_" + description.split(separator: ":").joined(separator: "_")
    }

    /// The device's object path below an adapter's (`/org/bluez/hci0/dev_…`).
    public func devicePath(onAdapter adapterPath: String) -> String {
        adapterPath + "/" + objectPathElement
    }

    /// Orders by written form.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
