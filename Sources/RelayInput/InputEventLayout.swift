/// The byte layout of `struct input_event`: a `struct timeval` of two C `long`s, then
/// `__u16 type`, `__u16 code`, `__s32 value` — 24 bytes on 64-bit Linux, 16 on 32-bit.
public struct InputEventLayout: Hashable, Sendable {
    /// The size of a C `long`.
    public var wordSize: Int

    /// Creates a layout for a `long` of `wordSize` (4 or 8) bytes.
    public init(wordSize: Int) {
        self.wordSize = wordSize
    }

    /// The layout of the machine this runs on.
    public static let native = InputEventLayout(wordSize: MemoryLayout<CLong>.size)

    /// Bytes per record.
    public var recordSize: Int { 2 * wordSize + 8 }

    /// Decodes one record from `bytes` at `offset` (native byte order).
    func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> InputEvent {
        func word(_ at: Int) -> Int {
            wordSize == 8 ? Int(bytes.loadUnaligned(fromByteOffset: at, as: Int64.self))
                : Int(bytes.loadUnaligned(fromByteOffset: at, as: Int32.self))
        }
        let tail = offset + 2 * wordSize
        return InputEvent(
            seconds: word(offset), microseconds: word(offset + wordSize),
            type: bytes.loadUnaligned(fromByteOffset: tail, as: UInt16.self),
            code: bytes.loadUnaligned(fromByteOffset: tail + 2, as: UInt16.self),
            value: bytes.loadUnaligned(fromByteOffset: tail + 4, as: Int32.self))
    }

    /// Encodes one record, as the kernel writes it (for tests and injected input).
    public func encode(_ event: InputEvent) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(recordSize)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) } }
        if wordSize == 8 {
            append(Int64(event.seconds))
            append(Int64(event.microseconds))
        } else {
            append(Int32(truncatingIfNeeded: event.seconds))
            append(Int32(truncatingIfNeeded: event.microseconds))
        }
        append(event.type)
        append(event.code)
        append(event.value)
        return bytes
    }
}
