import CDBus

/// Reads a method call's arguments one at a time, in order: straight from the received message
/// for a method declared with `reading:` (no ``DBusValue`` is built for what is read into Swift
/// types), or from decoded values when the call came another way.
///
/// A reader points into the message it reads and is valid only inside the handler it is
/// passed to; it cannot be copied. Every read checks the type it finds and throws an
/// `InvalidArgs` ``DBusError`` on a mismatch or past the last argument.
public struct DBusArgumentReader: ~Copyable {
    /// libdbus's iterator over the message, when reading one.
    private var iterator = DBusMessageIter()
    /// The values read instead, when there is no message.
    private let values: [DBusValue]?
    /// The next value's index in ``values``.
    private var index = 0

    /// A reader over `values`, as decoded arguments or the elements of a decoded container.
    public init(_ values: [DBusValue]) {
        self.values = values
    }

    /// A reader over the arguments of `message`, which libdbus has validated and which must
    /// outlive the reader.
    init(message: OpaquePointer) {
        values = nil
        dbus_message_iter_init(message, &iterator)
    }

    /// A reader over the contents of the container under `parent`'s iterator.
    private init(recursingInto parent: inout DBusMessageIter) {
        values = nil
        dbus_message_iter_recurse(&parent, &iterator)
    }

    /// Whether every value has been read.
    public var isAtEnd: Bool {
        mutating get {
            if let values { return index >= values.count }
            return dbus_message_iter_get_arg_type(&iterator) == TypeCode.invalid
        }
    }

    /// Reads a string (`s`).
    public mutating func read(_ type: String.Type = String.self) throws(DBusError) -> String {
        if values != nil {
            guard case .string(let text) = try nextValue() else { throw mismatch(expected: "'s'") }
            return text
        }
        try expect(TypeCode.string, "'s'")
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &pointer)
        dbus_message_iter_next(&iterator)
        return pointer.map { String(cString: $0) } ?? ""
    }

    /// Reads an unsigned 32-bit integer (`u`).
    public mutating func read(_ type: UInt32.Type = UInt32.self) throws(DBusError) -> UInt32 {
        if values != nil {
            guard case .uint32(let number) = try nextValue() else { throw mismatch(expected: "'u'") }
            return number
        }
        return try readBasic(TypeCode.uint32, "'u'", UInt32(0))
    }

    /// Reads a signed 32-bit integer (`i`).
    public mutating func read(_ type: Int32.Type = Int32.self) throws(DBusError) -> Int32 {
        if values != nil {
            guard case .int32(let number) = try nextValue() else { throw mismatch(expected: "'i'") }
            return number
        }
        return try readBasic(TypeCode.int32, "'i'", Int32(0))
    }

    /// Reads the next value whatever its type, decoded; a variant stays wrapped.
    public mutating func readValue() throws(DBusError) -> DBusValue {
        if values != nil { return try nextValue() }
        guard dbus_message_iter_get_arg_type(&iterator) != TypeCode.invalid else { throw Self.missing }
        let value: DBusValue
        do {
            value = try withUnsafeMutablePointer(to: &iterator) { try MessageDecoder.decodeValue($0) }
        } catch {
            throw error as? DBusError ?? DBusError.invalidArgs(String(describing: error))
        }
        dbus_message_iter_next(&iterator)
        return value
    }

    /// Reads an array other than a dictionary: `body` gets a reader over its elements.
    public mutating func readArray<Result>(_ body: (inout DBusArgumentReader) throws(DBusError) -> Result)
        throws(DBusError) -> Result
    {
        if values != nil {
            switch try nextValue() {
            case .array(_, let elements):
                var elements = DBusArgumentReader(elements)
                return try body(&elements)
            case .bytes(let bytes):
                var elements = DBusArgumentReader(bytes.map(DBusValue.byte))
                return try body(&elements)
            default:
                throw mismatch(expected: Self.array)
            }
        }
        try expect(TypeCode.array, Self.array)
        guard dbus_message_iter_get_element_type(&iterator) != TypeCode.dictionaryEntry else {
            throw mismatch(expected: Self.array)
        }
        var elements = DBusArgumentReader(recursingInto: &iterator)
        let result = try body(&elements)
        dbus_message_iter_next(&iterator)
        return result
    }

    /// Reads a dictionary (`a{…}`): `entry` gets a reader over each entry's key and value.
    public mutating func readDictionary(_ entry: (inout DBusArgumentReader) throws(DBusError) -> Void)
        throws(DBusError)
    {
        if values != nil {
            guard case .dictionary(_, _, let entries) = try nextValue() else {
                throw mismatch(expected: Self.dictionary)
            }
            for pair in entries {
                var reader = DBusArgumentReader([pair.key, pair.value])
                try entry(&reader)
            }
            return
        }
        try expect(TypeCode.array, Self.dictionary)
        guard dbus_message_iter_get_element_type(&iterator) == TypeCode.dictionaryEntry else {
            throw mismatch(expected: Self.dictionary)
        }
        var entries = DBusArgumentReader(recursingInto: &iterator)
        while dbus_message_iter_get_arg_type(&entries.iterator) == TypeCode.dictionaryEntry {
            var reader = DBusArgumentReader(recursingInto: &entries.iterator)
            try entry(&reader)
            dbus_message_iter_next(&entries.iterator)
        }
        dbus_message_iter_next(&iterator)
    }

    // MARK: - Helpers

    private static let missing = DBusError.invalidArgs("Expected another argument, but there are no more")
    private static let array = "an array"
    private static let dictionary = "a dictionary"

    private mutating func nextValue() throws(DBusError) -> DBusValue {
        guard let values, index < values.count else { throw Self.missing }
        index += 1
        return values[index - 1]
    }

    /// Checks the type under the iterator; `expected` describes it for the error.
    private mutating func expect(_ code: Int32, _ expected: String) throws(DBusError) {
        let found = dbus_message_iter_get_arg_type(&iterator)
        guard found == code else {
            if found == TypeCode.invalid { throw Self.missing }
            throw DBusError.invalidArgs("Expected \(expected), got a value of type code '\(Self.character(found))'")
        }
    }

    private mutating func readBasic<T: BitwiseCopyable>(_ code: Int32, _ expected: String, _ initial: T)
        throws(DBusError) -> T
    {
        try expect(code, expected)
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
        dbus_message_iter_next(&iterator)
        return value
    }

    /// The error for a decoded value of another type than `expected`; the value was consumed.
    private func mismatch(expected: String) -> DBusError {
        guard let values, index > 0 else { return Self.missing }
        return DBusError.invalidArgs("Expected \(expected), got a value of type '\(values[index - 1].signature)'")
    }

    private static func character(_ code: Int32) -> String {
        guard let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: code)) else { return "?" }
        return String(Character(scalar))
    }
}
