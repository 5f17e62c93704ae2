public import Foundation

/// Splits a byte stream into frames: a 16-bit big-endian length, then that many bytes.
///
/// Correct under any split of the stream: a frame may arrive one byte at a time, and
/// one read may hold several frames. A length of zero or above `maximumLength` is an
/// error, after which the decoder refuses further input: the connection must be closed,
/// because the stream can no longer be trusted to be in step.
public struct FrameDecoder: Sendable {
    /// The largest payload accepted.
    public let maximumLength: Int

    private var buffer = Data()
    private var readIndex = 0
    private var failure: FrameError?

    /// Creates a decoder accepting payloads of 1...`maximumLength` bytes.
    public init(maximumLength: Int = FrameFormat.defaultMaximumLength) {
        precondition((1...Int(UInt16.max)).contains(maximumLength), "a frame length must fit in 16 bits")
        self.maximumLength = maximumLength
    }

    /// Appends bytes read from the stream.
    public mutating func append(_ bytes: Data) {
        guard failure == nil else { return }
        if readIndex > 0, readIndex >= buffer.count / 2 {
            // Drop consumed bytes now and then, so a long session does not grow the buffer.
            buffer.removeSubrange(buffer.startIndex..<buffer.startIndex + readIndex)
            readIndex = 0
        }
        buffer.append(bytes)
    }

    /// The next complete frame's payload, `nil` when more bytes are needed.
    public mutating func nextFrame() throws(FrameError) -> Data? {
        if let failure { throw failure }
        let available = buffer.count - readIndex
        guard available >= FrameFormat.headerLength else { return nil }
        let start = buffer.startIndex + readIndex
        let length = Int(buffer[start]) << 8 | Int(buffer[start + 1])
        guard length > 0 else { return try fail(.empty) }
        guard length <= maximumLength else { return try fail(.oversized(length: length, maximum: maximumLength)) }
        guard available >= FrameFormat.headerLength + length else { return nil }
        let payloadStart = start + FrameFormat.headerLength
        readIndex += FrameFormat.headerLength + length
        return Data(buffer[payloadStart..<payloadStart + length])
    }

    /// Declares the end of the stream; throws if it ended inside a frame.
    public func finish() throws(FrameError) {
        if let failure { throw failure }
        let pending = buffer.count - readIndex
        if pending > 0 { throw .truncated(bufferedBytes: pending) }
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    private mutating func fail(_ error: FrameError) throws(FrameError) -> Data? {
        failure = error
        throw error
    }
}

/// Frame layout constants and the encoder.
public enum FrameFormat {
    /// The length prefix: two bytes, big-endian.
    public static let headerLength = 2
    /// Large enough for a notification at the model's limits and a category with all its
    /// actions; an RFCOMM link carries it in about 0.2 s.
    public static let defaultMaximumLength = 16_384

    /// Prefixes a payload with its length.
    public static func encode(_ payload: Data, maximumLength: Int = defaultMaximumLength) throws(FrameError) -> Data {
        let header = try self.header(for: payload, maximumLength: maximumLength)
        var frame = Data(capacity: headerLength + payload.count)
        frame.append(header.high)
        frame.append(header.low)
        frame.append(payload)
        return frame
    }

    /// The length prefix for `payload`, for a writer that puts frames into a buffer of its own;
    /// throws for a payload no frame may carry.
    public static func header(for payload: Data, maximumLength: Int = defaultMaximumLength) throws(FrameError) -> (high: UInt8, low: UInt8) {
        guard !payload.isEmpty else { throw .empty }
        guard payload.count <= maximumLength else { throw .oversized(length: payload.count, maximum: maximumLength) }
        return (UInt8(payload.count >> 8), UInt8(payload.count & 0xFF))
    }
}

/// Why a stream is no longer usable as frames.
public enum FrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A frame announced a length of zero, which no message has.
    case empty
    /// A frame announced more bytes than allowed.
    case oversized(length: Int, maximum: Int)
    /// The stream ended in the middle of a frame.
    case truncated(bufferedBytes: Int)

    /// A message for logs.
    public var description: String {
        switch self {
        case .empty: "received a frame of length 0"
        case .oversized(let length, let maximum): "received a frame of \(length) bytes; the maximum is \(maximum)"
        case .truncated(let bytes): "the connection closed in the middle of a frame (\(bytes) bytes pending)"
        }
    }
}
