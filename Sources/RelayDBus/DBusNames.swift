/// Validation of the names that appear in D-Bus message headers, done in Swift before libdbus sees them.
///
/// libdbus treats an invalid name passed to its setters as a programming error and aborts the
/// process by default, so every name that can reach it from outside this module is checked here first
/// and rejected with an `InvalidArgs` error instead. The rules are those of the D-Bus specification.
enum DBusNames {
    /// The longest name the specification allows.
    static let maximumLength = 255

    /// An interface name: two or more dot-separated elements of `[A-Za-z0-9_]`, none starting with a digit.
    static func isValidInterface(_ name: String) -> Bool {
        withBytes(name) { isValidDotted($0, allowHyphen: false, allowLeadingDigit: false) }
    }

    /// An error name follows the interface name rules.
    static func isValidErrorName(_ name: String) -> Bool { isValidInterface(name) }

    /// A member (method, signal or property) name: `[A-Za-z0-9_]+`, not starting with a digit.
    static func isValidMember(_ name: String) -> Bool {
        withBytes(name) { bytes in
            guard let first = bytes.first, bytes.count <= maximumLength, !isDigit(first) else { return false }
            return bytes.allSatisfy(isElementCharacter)
        }
    }

    /// A unique (`:1.42`) or well-known (`org.example.Service`) bus name.
    static func isValidBusName(_ name: String) -> Bool {
        withBytes(name) { bytes in
            if bytes.first == UInt8(ascii: ":") {
                return isValidDotted(
                    UnsafeBufferPointer(rebasing: bytes.dropFirst()), allowHyphen: true, allowLeadingDigit: true,
                    lengthAllowance: 1)
            }
            return isValidDotted(bytes, allowHyphen: true, allowLeadingDigit: false)
        }
    }

    /// A unique connection name, which the bus assigns and which starts with a colon.
    static func isUniqueName(_ name: String) -> Bool { name.hasPrefix(":") }

    /// An object path: `/`, or `/`-separated non-empty elements of `[A-Za-z0-9_]` with no trailing slash.
    static func isValidObjectPath(_ path: String) -> Bool {
        withBytes(path) { isValidObjectPath($0) }
    }

    private static func isValidObjectPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
            } else {
                guard isElementCharacter(byte) else { return false }
                previousWasSlash = false
            }
        }
        return true
    }

    /// Throws `InvalidArgs` unless `name` is a valid interface name.
    static func requireInterface(_ name: String) throws {
        guard isValidInterface(name) else { throw DBusError.invalidArgs("Invalid interface name '\(name)'") }
    }

    /// Throws `InvalidArgs` unless `name` is a valid member name.
    static func requireMember(_ name: String) throws {
        guard isValidMember(name) else { throw DBusError.invalidArgs("Invalid member name '\(name)'") }
    }

    /// Throws `InvalidArgs` unless `name` is a valid bus name.
    static func requireBusName(_ name: String) throws {
        guard isValidBusName(name) else { throw DBusError.invalidArgs("Invalid bus name '\(name)'") }
    }

    /// Throws `InvalidArgs` unless `path` is a valid object path.
    static func requireObjectPath(_ path: String) throws {
        guard isValidObjectPath(path) else { throw DBusError.invalidArgs("Invalid object path '\(path)'") }
    }

    /// Runs `body` on the string's UTF-8 bytes in place (a copy only for a bridged string): every
    /// signal and reply checks its names, so this is on the path of every message sent.
    private static func withBytes(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        string.utf8.withContiguousStorageIfAvailable(body) ?? Array(string.utf8).withUnsafeBufferPointer(body)
    }

    private static func isValidDotted(
        _ bytes: UnsafeBufferPointer<UInt8>, allowHyphen: Bool, allowLeadingDigit: Bool, lengthAllowance: Int = 0
    ) -> Bool {
        guard !bytes.isEmpty, bytes.count + lengthAllowance <= maximumLength else { return false }
        var elements = 0
        var elementLength = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard elementLength > 0 else { return false }
                elements += 1
                elementLength = 0
                continue
            }
            let allowed = isElementCharacter(byte) || (allowHyphen && byte == UInt8(ascii: "-"))
            guard allowed else { return false }
            if elementLength == 0 && !allowLeadingDigit && isDigit(byte) { return false }
            elementLength += 1
        }
        guard elementLength > 0 else { return false }
        return elements + 1 >= 2
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isElementCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}

/// A validated D-Bus object path such as `/org/freedesktop/Notifications`.
public struct DBusObjectPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path text.
    public let rawValue: String

    /// Validates `path`; throws an `InvalidArgs` `DBusError` if it is not a valid object path.
    public init(_ path: String) throws {
        try DBusNames.requireObjectPath(path)
        rawValue = path
    }

    /// Wraps a path that is known to be valid (decoded by libdbus, or built from valid parts).
    init(unchecked path: String) { rawValue = path }

    /// The root path, `/`.
    public static let root = DBusObjectPath(unchecked: "/")

    /// The path text.
    public var description: String { rawValue }

    /// Orders paths by their text.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether this path is `ancestor` or lies below it.
    public func isDescendant(ofOrEqualTo ancestor: DBusObjectPath) -> Bool {
        if ancestor.rawValue == "/" || rawValue == ancestor.rawValue { return true }
        return rawValue.hasPrefix(ancestor.rawValue + "/")
    }
}
