/// A Swift type with a fixed D-Bus type, convertible to and from ``DBusValue``.
///
/// Conversions from `DBusValue` never trap: a value of the wrong type throws an `InvalidArgs`
/// `DBusError`, so a handler that simply `try`s its decoding answers a badly typed call with the
/// standard error. `DBusValue` itself conforms as the variant type `v`, which makes
/// `[String: DBusValue]` the natural Swift type of `a{sv}`.
public protocol DBusValueConvertible: Sendable {
    /// The D-Bus type of every value of this Swift type; a single complete type.
    static var dbusSignature: DBusSignature { get }
    /// This value as a D-Bus value of type ``dbusSignature``.
    var dbusValue: DBusValue { get }
    /// Converts a D-Bus value, throwing an `InvalidArgs` `DBusError` if it has a different type.
    init(dbusValue: DBusValue) throws
}

/// A ``DBusValueConvertible`` type whose D-Bus type is basic, so it can be a dictionary key.
public protocol DBusBasicValueConvertible: DBusValueConvertible, Hashable {}

extension DBusValue {
    /// Converts a Swift value to its D-Bus representation.
    public init<T: DBusValueConvertible>(_ value: T) {
        self = value.dbusValue
    }

    /// Converts this value to `type`, throwing an `InvalidArgs` `DBusError` on a type mismatch.
    public func decode<T: DBusValueConvertible>(_ type: T.Type = T.self) throws -> T {
        try T(dbusValue: self)
    }

    /// An array of `elements`, typed by the Swift element type so that it marshals even when empty.
    public static func array<T: DBusValueConvertible>(_ elements: [T]) -> DBusValue {
        elements.dbusValue
    }

    static func mismatch(_ value: DBusValue, expected: DBusSignature) -> DBusError {
        DBusError.invalidArgs("Expected a value of type '\(expected)', got '\(value.signature)'")
    }
}

extension Array where Element == DBusValue {
    /// The signature of these values as message arguments.
    public var dbusSignature: DBusSignature {
        // Most replies carry one value: its signature as it is, without joining strings.
        count == 1 ? self[0].signature : .concatenating(map(\.signature))
    }

    /// Decodes the argument at `index` as `type`; throws an `InvalidArgs` `DBusError` if the argument
    /// is missing or has another type.
    public func decode<T: DBusValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard indices.contains(index) else {
            throw DBusError.invalidArgs("Expected at least \(index + 1) arguments, got \(count)")
        }
        return try self[index].decode(type)
    }
}

// MARK: - Basic types

extension UInt8: DBusBasicValueConvertible {
    /// `y`
    public static var dbusSignature: DBusSignature { .byte }
    /// `.byte(self)`
    public var dbusValue: DBusValue { .byte(self) }
    /// Accepts only `.byte`.
    public init(dbusValue: DBusValue) throws {
        guard case .byte(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .byte) }
        self = value
    }
}

extension Bool: DBusBasicValueConvertible {
    /// `b`
    public static var dbusSignature: DBusSignature { .boolean }
    /// `.boolean(self)`
    public var dbusValue: DBusValue { .boolean(self) }
    /// Accepts only `.boolean`.
    public init(dbusValue: DBusValue) throws {
        guard case .boolean(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .boolean) }
        self = value
    }
}

extension Int16: DBusBasicValueConvertible {
    /// `n`
    public static var dbusSignature: DBusSignature { .int16 }
    /// `.int16(self)`
    public var dbusValue: DBusValue { .int16(self) }
    /// Accepts only `.int16`.
    public init(dbusValue: DBusValue) throws {
        guard case .int16(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .int16) }
        self = value
    }
}

extension UInt16: DBusBasicValueConvertible {
    /// `q`
    public static var dbusSignature: DBusSignature { .uint16 }
    /// `.uint16(self)`
    public var dbusValue: DBusValue { .uint16(self) }
    /// Accepts only `.uint16`.
    public init(dbusValue: DBusValue) throws {
        guard case .uint16(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .uint16) }
        self = value
    }
}

extension Int32: DBusBasicValueConvertible {
    /// `i`
    public static var dbusSignature: DBusSignature { .int32 }
    /// `.int32(self)`
    public var dbusValue: DBusValue { .int32(self) }
    /// Accepts only `.int32`.
    public init(dbusValue: DBusValue) throws {
        guard case .int32(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .int32) }
        self = value
    }
}

extension UInt32: DBusBasicValueConvertible {
    /// `u`
    public static var dbusSignature: DBusSignature { .uint32 }
    /// `.uint32(self)`
    public var dbusValue: DBusValue { .uint32(self) }
    /// Accepts only `.uint32`.
    public init(dbusValue: DBusValue) throws {
        guard case .uint32(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .uint32) }
        self = value
    }
}

extension Int64: DBusBasicValueConvertible {
    /// `x`
    public static var dbusSignature: DBusSignature { .int64 }
    /// `.int64(self)`
    public var dbusValue: DBusValue { .int64(self) }
    /// Accepts only `.int64`.
    public init(dbusValue: DBusValue) throws {
        guard case .int64(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .int64) }
        self = value
    }
}

extension UInt64: DBusBasicValueConvertible {
    /// `t`
    public static var dbusSignature: DBusSignature { .uint64 }
    /// `.uint64(self)`
    public var dbusValue: DBusValue { .uint64(self) }
    /// Accepts only `.uint64`.
    public init(dbusValue: DBusValue) throws {
        guard case .uint64(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .uint64) }
        self = value
    }
}

extension Double: DBusBasicValueConvertible {
    /// `d`
    public static var dbusSignature: DBusSignature { .double }
    /// `.double(self)`
    public var dbusValue: DBusValue { .double(self) }
    /// Accepts only `.double`.
    public init(dbusValue: DBusValue) throws {
        guard case .double(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .double) }
        self = value
    }
}

extension String: DBusBasicValueConvertible {
    /// `s`
    public static var dbusSignature: DBusSignature { .string }
    /// `.string(self)`
    public var dbusValue: DBusValue { .string(self) }
    /// Accepts only `.string`.
    public init(dbusValue: DBusValue) throws {
        guard case .string(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .string) }
        self = value
    }
}

extension DBusObjectPath: DBusBasicValueConvertible {
    /// `o`
    public static var dbusSignature: DBusSignature { .objectPath }
    /// `.objectPath(self)`
    public var dbusValue: DBusValue { .objectPath(self) }
    /// Accepts only `.objectPath`.
    public init(dbusValue: DBusValue) throws {
        guard case .objectPath(let value) = dbusValue else {
            throw DBusValue.mismatch(dbusValue, expected: .objectPath)
        }
        self = value
    }
}

extension DBusSignature: DBusBasicValueConvertible {
    /// `g`
    public static var dbusSignature: DBusSignature { .signature }
    /// `.signature(self)`
    public var dbusValue: DBusValue { .signature(self) }
    /// Accepts only `.signature`.
    public init(dbusValue: DBusValue) throws {
        guard case .signature(let value) = dbusValue else {
            throw DBusValue.mismatch(dbusValue, expected: .signature)
        }
        self = value
    }
}

extension DBusUnixFD: DBusValueConvertible {
    /// `h`
    public static var dbusSignature: DBusSignature { .unixFD }
    /// `.unixFD(self)`
    public var dbusValue: DBusValue { .unixFD(self) }
}

extension DBusValueConvertible where Self == DBusUnixFD {
    /// Accepts only `.unixFD`; the result shares ownership of the descriptor with the value.
    public init(dbusValue: DBusValue) throws {
        guard case .unixFD(let value) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .unixFD) }
        self = value
    }
}

// MARK: - Variants and containers

extension DBusValue: DBusValueConvertible {
    /// `v`: a `DBusValue` used as a typed value is a variant.
    public static var dbusSignature: DBusSignature { .variant }
    /// `.variant(self)`; always wraps, so decoding gives back exactly this value.
    public var dbusValue: DBusValue { .variant(self) }
    /// Accepts only `.variant`, returning its content.
    public init(dbusValue: DBusValue) throws {
        guard case .variant(let inner) = dbusValue else { throw DBusValue.mismatch(dbusValue, expected: .variant) }
        self = inner
    }
}

extension Array: DBusValueConvertible where Element: DBusValueConvertible {
    /// `a` followed by the element type.
    public static var dbusSignature: DBusSignature { .array(of: Element.dbusSignature) }
    /// An array value typed by `Element`; bytes as one block (`.bytes`).
    public var dbusValue: DBusValue {
        // A cast alone would also take an empty array of anything else for bytes.
        if Element.self == UInt8.self, let bytes = self as? [UInt8] { return .bytes(bytes) }
        return .array(elementSignature: Element.dbusSignature, elements: map(\.dbusValue))
    }
    /// Accepts an array whose elements all convert to `Element` (for bytes, `.bytes` as well).
    public init(dbusValue: DBusValue) throws {
        switch dbusValue {
        case .array(_, let elements):
            self = try elements.map { try Element(dbusValue: $0) }
        case .bytes(let bytes):
            if Element.self == UInt8.self, let same = bytes as? Self {
                self = same
            } else {
                self = try bytes.map { try Element(dbusValue: .byte($0)) }
            }
        default:
            throw DBusValue.mismatch(dbusValue, expected: Self.dbusSignature)
        }
    }
}

extension Dictionary: DBusValueConvertible where Key: DBusBasicValueConvertible, Value: DBusValueConvertible {
    /// `a{KV}`.
    public static var dbusSignature: DBusSignature { .dictionary(key: Key.dbusSignature, value: Value.dbusSignature) }
    /// A dictionary value; entries are in no particular order.
    public var dbusValue: DBusValue {
        .dictionary(
            keySignature: Key.dbusSignature, valueSignature: Value.dbusSignature,
            entries: map { DBusDictionaryEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) })
    }
    /// Accepts a dictionary whose keys and values convert; a repeated key keeps its last value.
    public init(dbusValue: DBusValue) throws {
        guard case .dictionary(_, _, let entries) = dbusValue else {
            throw DBusValue.mismatch(dbusValue, expected: Self.dbusSignature)
        }
        var result: [Key: Value] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            result[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value)
        }
        self = result
    }
}
