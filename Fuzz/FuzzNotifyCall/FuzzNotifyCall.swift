import Foundation
import RelayCore
import RelayDBus
import RelayFreedesktop
import RelayFreedesktopDBus
import RelayFuzzing

/// `Notify` arguments as a hostile client could send them: the bytes choose the argument
/// list (usually the right eight, sometimes not), huge or odd strings, thousands of actions,
/// and hints whose values have any type at any depth — `image-data` included. Whatever
/// decodes must map to content the model accepts or explains.
func fuzzNotifyCall(_ data: Data) {
    var bytes = FuzzBytes(data)
    let arguments: [DBusValue]
    if bytes.next() % 16 == 0 {
        // Now and then an arbitrary argument list: wrong counts and types.
        arguments = (0..<Int(bytes.next() % 10)).map { _ in bytes.value(depth: 0) }
    } else {
        arguments = [
            .string(bytes.string()), .uint32(bytes.uint32()), .string(bytes.string()), .string(bytes.string()),
            .string(bytes.string()), actions(&bytes), hints(&bytes), .int32(Int32(bitPattern: bytes.uint32())),
        ]
    }
    guard let call = try? NotifyCall.decode(arguments: arguments) else { return }
    let content = FreedesktopMapping.content(of: call)
    _ = content.validationProblems(at: "content")
    if let category = FreedesktopMapping.category(of: call) {
        _ = category.validationProblems(at: "category")
    }
    _ = FreedesktopMapping.expiry(milliseconds: call.expireTimeout, hints: call.hints)
}

private func actions(_ bytes: inout FuzzBytes) -> DBusValue {
    // Up to a few thousand strings: the server must clamp, not choke.
    let count = Int(bytes.next()) * (bytes.next() % 4 == 0 ? 16 : 1)
    return .array(elementSignature: .string, elements: (0..<count).map { _ in .string(bytes.string()) })
}

private let hintNames = [
    "urgency", "category", "desktop-entry", "image-path", "image_path", "image-data", "image_data", "icon_data",
    "sound-name", "suppress-sound", "transient", "resident", "x-kde-reply-placeholder-text", "action-icons", "x",
]

private func hints(_ bytes: inout FuzzBytes) -> DBusValue {
    let count = Int(bytes.next() % 12)
    let entries = (0..<count).map { _ in
        let key = bytes.next() % 8 == 0 ? bytes.string() : hintNames[Int(bytes.next()) % hintNames.count]
        let value: DBusValue = key.contains("data") && bytes.next() % 2 == 0 ? image(&bytes) : bytes.value(depth: 0)
        return DBusDictionaryEntry(key: .string(key), value: .variant(value))
    }
    return .dictionary(keySignature: .string, valueSignature: variantSignature, entries: entries)
}

/// `(iiibiiay)`: width, height, rowstride, alpha, bits, channels, pixels — with numbers that
/// lie about the pixel bytes.
private func image(_ bytes: inout FuzzBytes) -> DBusValue {
    // Any integer type (or a string) is taken for a number: extremes must not overflow.
    let numbers = (0..<3).map { _ -> DBusValue in
        let wide = Int64(Int32(bitPattern: bytes.uint32())) << (bytes.next() % 4 == 0 ? 32 : 0)
        switch bytes.next() % 4 {
        case 0: return .int64(wide)
        case 1: return .uint64(UInt64(bitPattern: wide))
        case 2: return .string(String(wide))
        default: return .int32(Int32(truncatingIfNeeded: wide))
        }
    }
    let alpha = DBusValue.boolean(bytes.next() % 2 == 0)
    let more = (0..<2).map { _ in DBusValue.int32(Int32(bitPattern: bytes.uint32())) }
    let raw = (0..<Int(bytes.next()) * 4).map { _ in bytes.next() }
    // As decoding gives it (one block), or as a value built in-process.
    let pixels: DBusValue = bytes.next() % 2 == 0 ? .bytes(raw) : .array(elementSignature: .byte, elements: raw.map { .byte($0) })
    return .structure(numbers + [alpha] + more + [pixels])
}

private let variantSignature = (try? DBusSignature("v")) ?? .string

/// The fuzzer's bytes as a stream of choices; past the end everything is zero.
struct FuzzBytes {
    private let data: [UInt8]
    private var offset = 0

    init(_ data: Data) { self.data = Array(data) }

    mutating func next() -> UInt8 {
        defer { offset += 1 }
        return offset < data.count ? data[offset] : 0
    }

    mutating func uint32() -> UInt32 {
        (0..<4).reduce(UInt32(0)) { value, _ in value << 8 | UInt32(next()) }
    }

    /// A string of up to 255 bytes (or, rarely, 64 KiB), invalid UTF-8 repaired as a D-Bus peer's would be.
    mutating func string() -> String {
        let length = Int(next())
        if length == 255 { return String(repeating: "é", count: 32_768) }
        return String(decoding: (0..<length).map { _ in next() }, as: UTF8.self)
    }

    /// Any value, nested at most four deep.
    mutating func value(depth: Int) -> DBusValue {
        let kind = next() % (depth < 4 ? 12 : 8)
        switch kind {
        case 0: return .byte(next())
        case 1: return .boolean(next() % 2 == 1)
        case 2: return .int32(Int32(bitPattern: uint32()))
        case 3: return .uint32(uint32())
        case 4: return .int64(Int64(uint32()) << 32 | Int64(uint32()))
        case 5: return .double(Double(bitPattern: UInt64(uint32()) << 32 | UInt64(uint32())))
        case 6: return .string(string())
        case 7: return .int16(Int16(truncatingIfNeeded: uint32()))
        case 8: return .variant(value(depth: depth + 1))
        case 9: return .structure((0..<Int(next() % 8)).map { _ in value(depth: depth + 1) })
        case 10: return .array(elementSignature: .uint32, elements: (0..<Int(next())).map { _ in .uint32(uint32()) })
        default:
            let entries = (0..<Int(next() % 6)).map { _ in
                DBusDictionaryEntry(key: .string(string()), value: .variant(value(depth: depth + 1)))
            }
            return .dictionary(keySignature: .string, valueSignature: variantSignature, entries: entries)
        }
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzNotifyCall(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzNotifyCall_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzNotifyCall_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzNotifyCall)) }
    }
#endif
