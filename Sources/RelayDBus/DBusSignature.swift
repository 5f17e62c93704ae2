/// A D-Bus type signature: a sequence of zero or more complete types such as `s`, `a{sv}` or `(ia(ss))`.
///
/// A signature parsed from text with ``init(_:)`` is fully validated: well-formed, no empty structs,
/// dictionary entries only directly inside arrays with a basic key, and within the specification's
/// limits (255 bytes, 32 nested arrays, 32 nested structs). Signatures composed by this module (for
/// example for a nested Swift array) are well-formed by construction; their limits are checked again
/// when a value is marshalled, so an absurdly deep composition is rejected rather than sent.
public struct DBusSignature: Sendable, Hashable, CustomStringConvertible {
    /// The signature text.
    public let rawValue: String

    /// Parses and validates `signature`; throws an `InvalidSignature` `DBusError` if it is malformed.
    public init(_ signature: String) throws {
        try Self.validate(signature)
        rawValue = signature
    }

    /// Wraps text that is known to be well-formed.
    init(unchecked signature: String) { rawValue = signature }

    /// The signature text.
    public var description: String { rawValue }

    /// Whether the signature is empty (no values).
    public var isEmpty: Bool { rawValue.isEmpty }

    /// The complete types the signature consists of, in order: `sa{sv}i` gives `s`, `a{sv}`, `i`.
    public var completeTypes: [DBusSignature] {
        let bytes = Array(rawValue.utf8)
        var types: [DBusSignature] = []
        var index = 0
        while index < bytes.count {
            let start = index
            // Well-formed by invariant, so the parse cannot fail; stop rather than trap if it somehow does.
            guard (try? Self.parseCompleteType(bytes, &index, arrays: 0, structs: 0)) != nil else { break }
            types.append(DBusSignature(unchecked: String(decoding: bytes[start..<index], as: UTF8.self)))
        }
        return types
    }

    /// Whether the signature is exactly one complete type, as an array element or variant needs.
    public var isSingleCompleteType: Bool {
        let bytes = Array(rawValue.utf8)
        var index = 0
        guard (try? Self.parseCompleteType(bytes, &index, arrays: 0, structs: 0)) != nil else { return false }
        return index == bytes.count
    }

    /// Whether the signature is a single basic type, which is what a dictionary key must be.
    public var isBasicType: Bool {
        guard rawValue.utf8.count == 1, let code = rawValue.utf8.first else { return false }
        return Self.basicCodes.contains(code)
    }

    /// `y`, an unsigned byte.
    public static let byte = DBusSignature(unchecked: "y")
    /// `b`, a boolean.
    public static let boolean = DBusSignature(unchecked: "b")
    /// `n`, a signed 16-bit integer.
    public static let int16 = DBusSignature(unchecked: "n")
    /// `q`, an unsigned 16-bit integer.
    public static let uint16 = DBusSignature(unchecked: "q")
    /// `i`, a signed 32-bit integer.
    public static let int32 = DBusSignature(unchecked: "i")
    /// `u`, an unsigned 32-bit integer.
    public static let uint32 = DBusSignature(unchecked: "u")
    /// `x`, a signed 64-bit integer.
    public static let int64 = DBusSignature(unchecked: "x")
    /// `t`, an unsigned 64-bit integer.
    public static let uint64 = DBusSignature(unchecked: "t")
    /// `d`, an IEEE 754 double.
    public static let double = DBusSignature(unchecked: "d")
    /// `s`, a UTF-8 string.
    public static let string = DBusSignature(unchecked: "s")
    /// `o`, an object path.
    public static let objectPath = DBusSignature(unchecked: "o")
    /// `g`, a type signature.
    public static let signature = DBusSignature(unchecked: "g")
    /// `h`, a Unix file descriptor.
    public static let unixFD = DBusSignature(unchecked: "h")
    /// `v`, a variant.
    public static let variant = DBusSignature(unchecked: "v")
    /// The empty signature, for a message without arguments.
    public static let empty = DBusSignature(unchecked: "")
    /// `ay`
    public static let byteArray = DBusSignature(unchecked: "ay")

    /// `a` followed by `element`; `element` must be a single complete type.
    static func array(of element: DBusSignature) -> DBusSignature {
        DBusSignature(unchecked: "a" + element.rawValue)
    }

    /// `a{KV}`; `key` must be a basic type and `value` a single complete type.
    static func dictionary(key: DBusSignature, value: DBusSignature) -> DBusSignature {
        DBusSignature(unchecked: "a{" + key.rawValue + value.rawValue + "}")
    }

    /// The concatenation of `signatures`.
    static func concatenating(_ signatures: [DBusSignature]) -> DBusSignature {
        DBusSignature(unchecked: signatures.map(\.rawValue).joined())
    }
}

// MARK: - Validation

extension DBusSignature {
    /// The longest signature the specification allows, in bytes.
    static let maximumLength = 255
    /// The deepest nesting of arrays, and separately of structs, within one signature.
    static let maximumNesting = 32

    /// Type codes of the basic (fixed and string-like) types, which may be dictionary keys.
    static let basicCodes: Set<UInt8> = Set("ybnqiuxtdsogh".utf8)

    /// Throws `InvalidSignature` unless `signature` is a sequence of valid complete types within limits.
    static func validate(_ signature: String) throws {
        let bytes = Array(signature.utf8)
        guard bytes.count <= maximumLength else {
            throw DBusError(.invalidSignature, "Signature is longer than \(maximumLength) bytes")
        }
        var index = 0
        while index < bytes.count {
            try parseCompleteType(bytes, &index, arrays: 0, structs: 0)
        }
    }

    /// Consumes one complete type starting at `index`, enforcing the nesting limits.
    private static func parseCompleteType(_ bytes: [UInt8], _ index: inout Int, arrays: Int, structs: Int) throws {
        guard index < bytes.count else { throw malformed(bytes, "ends inside a container") }
        let code = bytes[index]
        index += 1
        switch code {
        case _ where basicCodes.contains(code), UInt8(ascii: "v"):
            return
        case UInt8(ascii: "a"):
            guard arrays < maximumNesting else { throw malformed(bytes, "nests arrays too deeply") }
            if index < bytes.count && bytes[index] == UInt8(ascii: "{") {
                index += 1
                guard structs < maximumNesting else { throw malformed(bytes, "nests structs too deeply") }
                guard index < bytes.count, basicCodes.contains(bytes[index]) else {
                    throw malformed(bytes, "has a dictionary key that is not a basic type")
                }
                index += 1
                try parseCompleteType(bytes, &index, arrays: arrays + 1, structs: structs + 1)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                    throw malformed(bytes, "has a dictionary entry without exactly one key and one value")
                }
                index += 1
            } else {
                try parseCompleteType(bytes, &index, arrays: arrays + 1, structs: structs)
            }
        case UInt8(ascii: "("):
            guard structs < maximumNesting else { throw malformed(bytes, "nests structs too deeply") }
            guard index < bytes.count, bytes[index] != UInt8(ascii: ")") else {
                throw malformed(bytes, "contains an empty struct")
            }
            while index < bytes.count && bytes[index] != UInt8(ascii: ")") {
                try parseCompleteType(bytes, &index, arrays: arrays, structs: structs + 1)
            }
            guard index < bytes.count else { throw malformed(bytes, "has an unterminated struct") }
            index += 1
        default:
            throw malformed(bytes, "has unexpected type code '\(String(decoding: [code], as: UTF8.self))'")
        }
    }

    private static func malformed(_ bytes: [UInt8], _ reason: String) -> DBusError {
        DBusError(.invalidSignature, "Signature '\(String(decoding: bytes, as: UTF8.self))' \(reason)")
    }
}
