import CDBus
import CRelayShim

/// D-Bus type codes as the `Int32`s libdbus's iterator functions take and return.
enum TypeCode {
    static let invalid = Int32(RELAY_DBUS_TYPE_INVALID)
    static let byte = Int32(RELAY_DBUS_TYPE_BYTE)
    static let boolean = Int32(RELAY_DBUS_TYPE_BOOLEAN)
    static let int16 = Int32(RELAY_DBUS_TYPE_INT16)
    static let uint16 = Int32(RELAY_DBUS_TYPE_UINT16)
    static let int32 = Int32(RELAY_DBUS_TYPE_INT32)
    static let uint32 = Int32(RELAY_DBUS_TYPE_UINT32)
    static let int64 = Int32(RELAY_DBUS_TYPE_INT64)
    static let uint64 = Int32(RELAY_DBUS_TYPE_UINT64)
    static let double = Int32(RELAY_DBUS_TYPE_DOUBLE)
    static let string = Int32(RELAY_DBUS_TYPE_STRING)
    static let objectPath = Int32(RELAY_DBUS_TYPE_OBJECT_PATH)
    static let signature = Int32(RELAY_DBUS_TYPE_SIGNATURE)
    static let unixFD = Int32(RELAY_DBUS_TYPE_UNIX_FD)
    static let array = Int32(RELAY_DBUS_TYPE_ARRAY)
    static let variant = Int32(RELAY_DBUS_TYPE_VARIANT)
    static let structure = Int32(RELAY_DBUS_TYPE_STRUCT)
    static let dictionaryEntry = Int32(RELAY_DBUS_TYPE_DICT_ENTRY)
}

/// Runs `body` with a message iterator at a stable address.
///
/// libdbus iterators are plain structs, but sub-iterators are opened from and closed into their parent
/// by pointer; giving each one its own allocation rules out Swift's inout temporaries moving them.
func withMessageIterator<Result>(_ body: (UnsafeMutablePointer<DBusMessageIter>) throws -> Result) rethrows
    -> Result
{
    try withUnsafeTemporaryAllocation(of: DBusMessageIter.self, capacity: 1) { buffer in
        let iterator = buffer.baseAddress!
        iterator.initialize(to: DBusMessageIter())
        defer { iterator.deinitialize(count: 1) }
        return try body(iterator)
    }
}

// MARK: - Encoding

/// Appends values to libdbus messages. Loop thread only; the values must have passed `validate()`,
/// so the only failure left is libdbus running out of memory.
enum MessageEncoder {
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws {
        try withMessageIterator { iterator in
            dbus_message_iter_init_append(message, iterator)
            for value in values { try append(value, to: iterator) }
        }
    }

    private static func append(_ value: DBusValue, to iterator: UnsafeMutablePointer<DBusMessageIter>) throws {
        switch value {
        case .byte(let number): try appendBasic(number, TypeCode.byte, iterator)
        case .boolean(let flag): try appendBasic(dbus_bool_t(flag ? 1 : 0), TypeCode.boolean, iterator)
        case .int16(let number): try appendBasic(number, TypeCode.int16, iterator)
        case .uint16(let number): try appendBasic(number, TypeCode.uint16, iterator)
        case .int32(let number): try appendBasic(number, TypeCode.int32, iterator)
        case .uint32(let number): try appendBasic(number, TypeCode.uint32, iterator)
        case .int64(let number): try appendBasic(number, TypeCode.int64, iterator)
        case .uint64(let number): try appendBasic(number, TypeCode.uint64, iterator)
        case .double(let number): try appendBasic(number, TypeCode.double, iterator)
        case .string(let text): try appendString(text, TypeCode.string, iterator)
        case .objectPath(let path): try appendString(path.rawValue, TypeCode.objectPath, iterator)
        case .signature(let signature): try appendString(signature.rawValue, TypeCode.signature, iterator)
        case .unixFD(let descriptor):
            // libdbus duplicates the descriptor into the message; the owner must stay alive until then.
            try withExtendedLifetime(descriptor) {
                try appendBasic(descriptor.fileDescriptor, TypeCode.unixFD, iterator)
            }
        case .array(let elementSignature, let elements):
            try appendContainer(TypeCode.array, signature: elementSignature.rawValue, to: iterator) { inner in
                for element in elements { try append(element, to: inner) }
            }
        case .bytes(let bytes):
            try appendContainer(TypeCode.array, signature: "y", to: iterator) { inner in
                let appended = bytes.withUnsafeBufferPointer { buffer in
                    var start = buffer.baseAddress
                    return withUnsafeMutablePointer(to: &start) {
                        dbus_message_iter_append_fixed_array(inner, TypeCode.byte, $0, Int32(buffer.count))
                    }
                }
                guard appended != 0 else { throw outOfMemory }
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            let entrySignature = "{" + keySignature.rawValue + valueSignature.rawValue + "}"
            try appendContainer(TypeCode.array, signature: entrySignature, to: iterator) { inner in
                for entry in entries {
                    try appendContainer(TypeCode.dictionaryEntry, signature: nil, to: inner) { pair in
                        try append(entry.key, to: pair)
                        try append(entry.value, to: pair)
                    }
                }
            }
        case .structure(let fields):
            try appendContainer(TypeCode.structure, signature: nil, to: iterator) { inner in
                for field in fields { try append(field, to: inner) }
            }
        case .variant(let content):
            try appendContainer(TypeCode.variant, signature: content.signature.rawValue, to: iterator) { inner in
                try append(content, to: inner)
            }
        }
    }

    private static func appendBasic<T: BitwiseCopyable>(
        _ value: T, _ type: Int32, _ iterator: UnsafeMutablePointer<DBusMessageIter>
    ) throws {
        let appended = withUnsafePointer(to: value) { dbus_message_iter_append_basic(iterator, type, $0) }
        guard appended != 0 else { throw outOfMemory }
    }

    private static func appendString(_ text: String, _ type: Int32, _ iterator: UnsafeMutablePointer<DBusMessageIter>)
        throws
    {
        let appended = text.withCString { characters in
            var pointer: UnsafePointer<CChar>? = characters
            return dbus_message_iter_append_basic(iterator, type, &pointer)
        }
        guard appended != 0 else { throw outOfMemory }
    }

    /// Opens a container, fills it and closes it; on failure the container is abandoned so that
    /// libdbus releases what it allocated for it (the message itself is then discarded by the caller).
    private static func appendContainer(
        _ type: Int32, signature: String?, to iterator: UnsafeMutablePointer<DBusMessageIter>,
        _ fill: (UnsafeMutablePointer<DBusMessageIter>) throws -> Void
    ) throws {
        try withMessageIterator { inner in
            let opened =
                if let signature {
                    signature.withCString { dbus_message_iter_open_container(iterator, type, $0, inner) }
                } else {
                    dbus_message_iter_open_container(iterator, type, nil, inner)
                }
            guard opened != 0 else { throw outOfMemory }
            do {
                try fill(inner)
            } catch {
                dbus_message_iter_abandon_container(iterator, inner)
                throw error
            }
            guard dbus_message_iter_close_container(iterator, inner) != 0 else { throw outOfMemory }
        }
    }

    private static let outOfMemory = DBusError(.noMemory, "Out of memory while building a D-Bus message")
}

// MARK: - Decoding

/// Reads libdbus messages into Swift values. Loop thread only.
///
/// libdbus validates every incoming message before dispatching it, but decoding still checks what it
/// reads and throws instead of trapping, so a libdbus surprise degrades to an error reply or a dropped
/// message rather than a crash.
enum MessageDecoder {
    static func decodeMessage(_ message: OpaquePointer) throws -> DBusMessage {
        var decoded = try decodeHeader(message)
        decoded.receive(arguments: try decodeArguments(of: message))
        return decoded
    }

    /// The message without its arguments, which are left for ``decodeArguments(of:)`` or a
    /// ``DBusArgumentReader``; its ``DBusMessage/signature`` is the one received.
    static func decodeHeader(_ message: OpaquePointer) throws -> DBusMessage {
        let kind: DBusMessage.Kind
        switch dbus_message_get_type(message) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: kind = .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: kind = .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: kind = .error
        case DBUS_MESSAGE_TYPE_SIGNAL: kind = .signal
        default: throw DBusError.invalidArgs("Unknown message type \(dbus_message_get_type(message))")
        }
        let replySerial = dbus_message_get_reply_serial(message)
        let decoded = DBusMessage(
            kind: kind,
            serial: dbus_message_get_serial(message),
            replySerial: replySerial == 0 ? nil : replySerial,
            sender: dbus_message_get_sender(message).map { String(cString: $0) },
            destination: dbus_message_get_destination(message).map { String(cString: $0) },
            // libdbus validated every header field and the body before it handed the message over,
            // so names and signatures read from it are taken as they are (here and below).
            path: dbus_message_get_path(message).map { DBusObjectPath(unchecked: String(cString: $0)) },
            interface: dbus_message_get_interface(message).map { String(cString: $0) },
            member: dbus_message_get_member(message).map { String(cString: $0) },
            errorName: dbus_message_get_error_name(message).map { String(cString: $0) },
            noReplyExpected: dbus_message_get_no_reply(message) != 0)
        // A pointer into the header, valid while the message is; "" for a body-less message.
        guard let signature = dbus_message_get_signature(message) else { return decoded }
        return DBusMessage(received: decoded, signature: DBusSignature(unchecked: String(cString: signature)))
    }

    static func decodeArguments(of message: OpaquePointer) throws -> [DBusValue] {
        try withMessageIterator { iterator in
            guard dbus_message_iter_init(message, iterator) != 0 else { return [] }
            // One type code or more an argument: the signature's length is room enough.
            return try decodeSequence(iterator, capacity: dbus_message_get_signature(message).map { strlen($0) } ?? 0)
        }
    }

    private static func decodeSequence(_ iterator: UnsafeMutablePointer<DBusMessageIter>, capacity: Int = 0) throws
        -> [DBusValue]
    {
        var values: [DBusValue] = []
        values.reserveCapacity(capacity)
        while dbus_message_iter_get_arg_type(iterator) != TypeCode.invalid {
            values.append(try decodeValue(iterator))
            dbus_message_iter_next(iterator)
        }
        return values
    }

    static func decodeValue(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws -> DBusValue {
        let type = dbus_message_iter_get_arg_type(iterator)
        switch type {
        case TypeCode.byte: return .byte(readBasic(iterator, UInt8(0)))
        case TypeCode.boolean: return .boolean(readBasic(iterator, dbus_bool_t(0)) != 0)
        case TypeCode.int16: return .int16(readBasic(iterator, Int16(0)))
        case TypeCode.uint16: return .uint16(readBasic(iterator, UInt16(0)))
        case TypeCode.int32: return .int32(readBasic(iterator, Int32(0)))
        case TypeCode.uint32: return .uint32(readBasic(iterator, UInt32(0)))
        case TypeCode.int64: return .int64(readBasic(iterator, Int64(0)))
        case TypeCode.uint64: return .uint64(readBasic(iterator, UInt64(0)))
        case TypeCode.double: return .double(readBasic(iterator, Double(0)))
        case TypeCode.string: return .string(readString(iterator))
        case TypeCode.objectPath: return .objectPath(DBusObjectPath(unchecked: readString(iterator)))
        case TypeCode.signature: return .signature(DBusSignature(unchecked: readString(iterator)))
        case TypeCode.unixFD:
            // libdbus hands out a fresh duplicate for every read, or -1 if duplicating failed.
            let descriptor = readBasic(iterator, Int32(-1))
            guard descriptor >= 0 else { throw DBusError(.ioError, "Cannot duplicate a received file descriptor") }
            return .unixFD(DBusUnixFD(takingOwnershipOf: descriptor))
        case TypeCode.array: return try decodeArray(iterator)
        case TypeCode.structure:
            let fields = try withMessageIterator { inner in
                dbus_message_iter_recurse(iterator, inner)
                return try decodeSequence(inner)
            }
            guard !fields.isEmpty else { throw DBusError.invalidArgs("Received an empty struct") }
            return .structure(fields)
        case TypeCode.variant:
            return try withMessageIterator { inner in
                dbus_message_iter_recurse(iterator, inner)
                guard dbus_message_iter_get_arg_type(inner) != TypeCode.invalid else {
                    throw DBusError.invalidArgs("Received an empty variant")
                }
                return .variant(try decodeValue(inner))
            }
        default:
            throw DBusError.invalidArgs("Received a value of unexpected type code \(type)")
        }
    }

    private static func decodeArray(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws -> DBusValue {
        let elementType = dbus_message_iter_get_element_type(iterator)
        return try withMessageIterator { inner in
            dbus_message_iter_recurse(iterator, inner)
            if elementType == TypeCode.dictionaryEntry {
                var entries: [DBusDictionaryEntry] = []
                var types: (key: Int32, value: Int32)?
                while dbus_message_iter_get_arg_type(inner) == TypeCode.dictionaryEntry {
                    let entry = try withMessageIterator { entry in
                        dbus_message_iter_recurse(inner, entry)
                        let keyType = dbus_message_iter_get_arg_type(entry)
                        let key = try decodeValue(entry)
                        guard dbus_message_iter_next(entry) != 0 else {
                            throw DBusError.invalidArgs("Malformed dictionary entry")
                        }
                        types = types ?? (keyType, dbus_message_iter_get_arg_type(entry))
                        return DBusDictionaryEntry(key: key, value: try decodeValue(entry))
                    }
                    entries.append(entry)
                    dbus_message_iter_next(inner)
                }
                let (keySignature, valueSignature) = try entrySignatures(of: iterator, types: types)
                return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries: entries)
            }
            let elementSignature = try singleCodeSignature(elementType) ?? DBusSignature(unchecked: String(arrayText(iterator).dropFirst()))
            if elementType == TypeCode.byte {
                // Byte arrays can be large (images, blobs); read them in one block instead of per element.
                guard dbus_message_iter_get_arg_type(inner) == TypeCode.byte else { return .bytes([]) }
                var bytes: UnsafeMutableRawPointer?
                var count: Int32 = 0
                withUnsafeMutablePointer(to: &bytes) { dbus_message_iter_get_fixed_array(inner, $0, &count) }
                let buffer = UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(max(count, 0)))
                return .bytes(Array(buffer))
            }
            return .array(elementSignature: elementSignature, elements: try decodeSequence(inner))
        }
    }

    /// A dictionary's key and value signatures: from the types of its first entry when both are
    /// one type code (`a{sv}`, `a{su}`: most dictionaries), otherwise read from libdbus, which
    /// allocates the array's whole signature to hand it out.
    private static func entrySignatures(of iterator: UnsafeMutablePointer<DBusMessageIter>, types: (key: Int32, value: Int32)?)
        throws -> (DBusSignature, DBusSignature)
    {
        if let types, let key = singleCodeSignature(types.key), let value = singleCodeSignature(types.value) {
            return (key, value)
        }
        // `a{KV}`: `{KV}` is not a signature on its own; split it into the key code and the value type.
        let entryTypes = try arrayText(iterator).utf8.dropFirst(2).dropLast()
        guard let keyCode = entryTypes.first else { throw DBusError.invalidArgs("Malformed dictionary") }
        return (
            DBusSignature(unchecked: String(decoding: CollectionOfOne(keyCode), as: UTF8.self)),
            DBusSignature(unchecked: String(decoding: entryTypes.dropFirst(), as: UTF8.self))
        )
    }

    /// The signature of the array under the iterator, checked to be one.
    private static func arrayText(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws -> String {
        let text = try signature(at: iterator)
        guard text.hasPrefix("a") else { throw DBusError.invalidArgs("Array has signature '\(text)'") }
        return text
    }

    /// The signature of a type that is one type code: the basic types and variants.
    private static func singleCodeSignature(_ type: Int32) -> DBusSignature? {
        switch type {
        case TypeCode.byte: .byte
        case TypeCode.boolean: .boolean
        case TypeCode.int16: .int16
        case TypeCode.uint16: .uint16
        case TypeCode.int32: .int32
        case TypeCode.uint32: .uint32
        case TypeCode.int64: .int64
        case TypeCode.uint64: .uint64
        case TypeCode.double: .double
        case TypeCode.string: .string
        case TypeCode.objectPath: .objectPath
        case TypeCode.signature: .signature
        case TypeCode.unixFD: .unixFD
        case TypeCode.variant: .variant
        default: nil
        }
    }

    private static func readBasic<T: BitwiseCopyable>(_ iterator: UnsafeMutablePointer<DBusMessageIter>, _ initial: T)
        -> T
    {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(iterator, $0) }
        return value
    }

    private static func readString(_ iterator: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(iterator, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    /// The signature of the value under the iterator; libdbus allocates it, so it is freed here.
    private static func signature(at iterator: UnsafeMutablePointer<DBusMessageIter>) throws -> String {
        guard let raw = dbus_message_iter_get_signature(iterator) else {
            throw DBusError(.noMemory, "Out of memory while reading a signature")
        }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
