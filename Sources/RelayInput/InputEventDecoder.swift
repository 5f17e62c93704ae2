/// Turns a byte stream into events, keeping a partial record until the rest arrives.
///
/// evdev returns whole records, but a pipe or socket carrying injected input need not, so the
/// reader never assumes a read ends on a record boundary.
public struct InputEventDecoder: Sendable {
    /// The record layout.
    public let layout: InputEventLayout
    private var pending: [UInt8] = []

    /// Creates a decoder for a layout.
    public init(layout: InputEventLayout = .native) {
        self.layout = layout
    }

    /// Bytes received but not yet forming a whole record.
    public var pendingByteCount: Int { pending.count }

    /// Adds bytes and returns every record they complete.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        let size = layout.recordSize
        let whole = pending.count / size
        guard whole > 0 else { return [] }
        let events = pending.withUnsafeBytes { buffer in
            (0..<whole).map { layout.decode(buffer, at: $0 * size) }
        }
        pending.removeFirst(whole * size)
        return events
    }
}
