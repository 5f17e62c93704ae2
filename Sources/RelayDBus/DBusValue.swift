/// One D-Bus value of any type: the typed tree that message arguments are marshalled from and
/// decoded into.
///
/// Containers carry their element types explicitly so that empty arrays and dictionaries have a
/// signature. Nothing stops you from building an inconsistent container (an `as` array holding an
/// integer); such values are rejected with an `InvalidArgs` error when marshalled, never sent.
/// Convert to and from Swift types with ``DBusValueConvertible`` (`DBusValue(["a", "b"])`,
/// `try value.decode([String].self)`).
public enum DBusValue: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case boolean(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`; must not contain NUL characters.
    case string(String)
    /// `o`
    case objectPath(DBusObjectPath)
    /// `g`
    case signature(DBusSignature)
    /// `h`; the descriptor is duplicated into the message when sent.
    case unixFD(DBusUnixFD)
    /// `a…`: elements that all have `elementSignature`, a single complete type.
    case array(elementSignature: DBusSignature, elements: [DBusValue])
    /// `ay` as one block of bytes: what decoding gives for a byte array, which may be an image of
    /// megabytes (as `.array` elements each byte would take a whole `DBusValue`). Marshals the
    /// same as an `.array` of `.byte`s, which is also accepted.
    case bytes([UInt8])
    /// `a{…}`: entries with keys of the basic type `keySignature` and values of `valueSignature`.
    case dictionary(keySignature: DBusSignature, valueSignature: DBusSignature, entries: [DBusDictionaryEntry])
    /// `(…)`: one or more fields.
    case structure([DBusValue])
    /// `v`: a value that carries its own type.
    indirect case variant(DBusValue)

    /// The single complete type of this value.
    public var signature: DBusSignature {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .array(let element, _): .array(of: element)
        case .bytes: .byteArray
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): DBusSignature(unchecked: "(" + fields.map(\.signature.rawValue).joined() + ")")
        case .variant: .variant
        }
    }

    /// The wrapped value if this is a variant, otherwise the value itself.
    public var unwrappingVariant: DBusValue {
        if case .variant(let inner) = self { return inner.unwrappingVariant }
        return self
    }
}

/// One key/value pair of a ``DBusValue/dictionary(keySignature:valueSignature:entries:)``.
public struct DBusDictionaryEntry: Sendable, Hashable {
    /// The key, of a basic type.
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Creates an entry.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// MARK: - Validation

extension DBusValue {
    /// The specification's limit on total container nesting in a message, variants included.
    static let maximumTotalNesting = 64
    /// The specification's limit on an array's length in bytes (64 MiB).
    static let maximumArrayLength = 64 * 1024 * 1024

    /// Throws `InvalidArgs` unless the value can be marshalled: containers consistent with their
    /// declared element types, strings free of NUL, and every signature within the specification's limits.
    ///
    /// This runs on the caller's thread before the value reaches libdbus, whose own argument checks
    /// abort the process rather than return an error.
    func validate() throws {
        try validate(depth: 0)
        // A basic value's signature is one type code, always within the limits.
        guard signature.rawValue.utf8.count > 1 else { return }
        try Self.checkLimits(of: signature)
    }

    /// The per-signature length and nesting limits, reported as a problem with the value.
    private static func checkLimits(of signature: DBusSignature) throws {
        do {
            try DBusSignature.validate(signature.rawValue)
        } catch let error as DBusError {
            throw DBusError.invalidArgs(error.message)
        }
    }

    private func validate(depth: Int) throws {
        guard depth <= Self.maximumTotalNesting else {
            throw DBusError.invalidArgs("Value nests containers more than \(Self.maximumTotalNesting) deep")
        }
        switch self {
        case .string(let string):
            guard !string.utf8.contains(0) else { throw DBusError.invalidArgs("String contains a NUL character") }
        case .bytes(let bytes):
            // libdbus aborts the process on a longer fixed array instead of failing the append.
            guard bytes.count <= Self.maximumArrayLength else {
                throw DBusError.invalidArgs("Byte array of \(bytes.count) bytes is over the specification's \(Self.maximumArrayLength)")
            }
        case .array(let elementSignature, let elements):
            guard elementSignature.isSingleCompleteType else {
                throw DBusError.invalidArgs("Array element signature '\(elementSignature)' is not a single complete type")
            }
            for element in elements {
                guard element.signature == elementSignature else {
                    throw DBusError.invalidArgs(
                        "Array of '\(elementSignature)' contains a value of type '\(element.signature)'")
                }
                try element.validate(depth: depth + 1)
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            guard keySignature.isBasicType else {
                throw DBusError.invalidArgs("Dictionary key signature '\(keySignature)' is not a basic type")
            }
            guard valueSignature.isSingleCompleteType else {
                throw DBusError.invalidArgs("Dictionary value signature '\(valueSignature)' is not a single complete type")
            }
            for entry in entries {
                guard entry.key.signature == keySignature, entry.value.signature == valueSignature else {
                    throw DBusError.invalidArgs(
                        "Dictionary 'a{\(keySignature)\(valueSignature)}' contains an entry of type "
                            + "'{\(entry.key.signature)\(entry.value.signature)}'")
                }
                try entry.key.validate(depth: depth + 2)
                try entry.value.validate(depth: depth + 2)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusError.invalidArgs("Structs must have at least one field") }
            for field in fields { try field.validate(depth: depth + 1) }
        case .variant(let inner):
            // A variant starts a new signature, so its content gets the per-signature checks afresh.
            try inner.validate(depth: depth + 1)
            try Self.checkLimits(of: inner.signature)
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .objectPath,
            .signature, .unixFD:
            break
        }
    }
}

// MARK: - Description

extension DBusValue: CustomStringConvertible {
    /// A compact, GVariant-like rendering for logs and test failures.
    public var description: String {
        switch self {
        case .byte(let value): "byte \(value)"
        case .boolean(let value): "\(value)"
        case .int16(let value): "int16 \(value)"
        case .uint16(let value): "uint16 \(value)"
        case .int32(let value): "\(value)"
        case .uint32(let value): "uint32 \(value)"
        case .int64(let value): "int64 \(value)"
        case .uint64(let value): "uint64 \(value)"
        case .double(let value): "\(value)"
        case .string(let value): "'\(value)'"
        case .objectPath(let value): "objectpath '\(value)'"
        case .signature(let value): "signature '\(value)'"
        case .unixFD(let value): "handle \(value.fileDescriptor)"
        case .array(let signature, let elements):
            elements.isEmpty ? "@a\(signature) []" : "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .bytes(let bytes): "@ay [\(bytes.count) bytes]"
        case .dictionary(let key, let value, let entries):
            entries.isEmpty
                ? "@a{\(key)\(value)} {}"
                : "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let inner): "<\(inner)>"
        }
    }
}

extension DBusValue {
    /// Whether a file descriptor occurs anywhere in the value, including inside variants.
    var containsUnixFD: Bool {
        switch self {
        case .unixFD: true
        case .variant(let inner): inner.containsUnixFD
        case .array(_, let elements): elements.contains(where: \.containsUnixFD)
        case .dictionary(_, _, let entries): entries.contains { $0.key.containsUnixFD || $0.value.containsUnixFD }
        case .structure(let fields): fields.contains(where: \.containsUnixFD)
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath,
            .signature, .bytes:
            false
        }
    }
}
