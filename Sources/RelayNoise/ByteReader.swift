import Foundation

/// Consumes a received message front to back.
///
/// Every read returns a fresh zero-based `Data`, so callers never meet the shared indices of a `Data` slice.
struct ByteReader {
    private var remaining: Data

    init(_ bytes: Data) {
        remaining = Data(bytes)
    }

    /// The next `count` bytes, or `messageTooShort` when fewer are left.
    mutating func read(_ count: Int) throws(NoiseError) -> Data {
        guard count >= 0, remaining.count >= count else {
            throw .messageTooShort(length: remaining.count, minimum: count)
        }
        let bytes = Data(remaining.prefix(count))
        remaining = Data(remaining.dropFirst(count))
        return bytes
    }

    /// Everything not yet read.
    mutating func readRest() -> Data {
        defer { remaining = Data() }
        return remaining
    }
}
