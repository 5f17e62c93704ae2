public import Foundation
import NIOCore
public import RelayWire

/// A connected byte stream between the agents, read and written as frames.
///
/// Whatever the transport (a Unix socket, TCP on loopback, an RFCOMM socket, a file
/// descriptor BlueZ handed over), everything above sees the same frames.
public struct FramedConnection: Sendable {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    /// Who is at the other end, for logs.
    public let peer: String

    init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, peer: String) {
        self.channel = channel
        self.peer = peer
    }

    /// Closes the connection without using it (refused connections, abandoned attempts).
    /// Every connection must be either run or closed.
    public func close() async {
        try? await channel.executeThenClose { _, _ in }
    }

    /// Closes the connection from outside while it runs: its reads end and its writes fail, so
    /// whatever runs it (`run`, `runBatches`) comes to an end.
    public func abort() {
        channel.channel.close(mode: .all, promise: nil)
    }

    /// Runs `body` with the connection's frames and closes the connection when it returns or throws.
    public func run<Result: Sendable>(
        maximumFrameLength: Int = FrameFormat.defaultMaximumLength,
        _ body: (inout FrameReader, FrameWriter) async throws -> Result
    ) async throws -> Result {
        try await runBatches(maximumFrameLength: maximumFrameLength) { batches, writer in
            var reader = FrameReader(iterator: batches.makeAsyncIterator())
            return try await body(&reader, writer)
        }
    }

    /// Runs `body` with the connection's frames as a sequence that may be read from another
    /// task (one task at a time), and closes the connection when `body` returns or throws.
    public func runBatches<Result: Sendable>(
        maximumFrameLength: Int = FrameFormat.defaultMaximumLength,
        _ body: (FrameBatches, FrameWriter) async throws -> Result
    ) async throws -> Result {
        try await channel.executeThenClose { inbound, outbound in
            try await body(
                FrameBatches(inbound: inbound, maximumLength: maximumFrameLength),
                FrameWriter(outbound: outbound, maximumLength: maximumFrameLength, channel: channel.channel))
        }
    }
}

/// A connection's frames, a read's worth at a time, so the reader can coalesce
/// acknowledgements. Iterate it from one task only; the iteration ends when the peer
/// closes cleanly between frames and throws `FrameError` for broken framing.
public struct FrameBatches: AsyncSequence, Sendable {
    /// A batch of frame payloads.
    public typealias Element = [Data]

    let inbound: NIOAsyncChannelInboundStream<ByteBuffer>
    let maximumLength: Int

    /// Reads and decodes frames.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        var decoder: FrameDecoder

        /// The frames completed by the next read; `nil` at a clean end.
        public mutating func next() async throws -> [Data]? {
            while true {
                var frames: [Data] = []
                while let frame = try decoder.nextFrame() { frames.append(frame) }
                if !frames.isEmpty { return frames }
                guard let buffer = try await iterator.next() else {
                    try decoder.finish()
                    return nil
                }
                decoder.append(Data(buffer.readableBytesView))
            }
        }
    }

    /// Starts reading; the iterator stays in the task that made it.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(iterator: inbound.makeAsyncIterator(), decoder: FrameDecoder(maximumLength: maximumLength))
    }
}

/// Reads frames, a read's worth at a time, within one task.
public struct FrameReader {
    private var iterator: FrameBatches.AsyncIterator

    init(iterator: FrameBatches.AsyncIterator) {
        self.iterator = iterator
    }

    /// The frames completed by the next read; `nil` when the peer closed cleanly between
    /// frames. Throws `FrameError` for broken framing, including a close inside a frame.
    public mutating func nextBatch() async throws -> [Data]? {
        try await iterator.next()
    }
}

/// Writes frames in order.
public struct FrameWriter: Sendable {
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let maximumLength: Int
    let channel: any Channel

    /// Closes the connection under a write that is waiting, which then fails: for a peer that
    /// stopped reading, whose socket would otherwise hold the write for ever.
    public func abort() {
        channel.close(mode: .all, promise: nil)
    }

    /// Whether a write now is taken at once: `false` while the bytes already waiting for the
    /// socket are over the channel's high-water mark, when a write waits for them to drain.
    public var isWritable: Bool { channel.isWritable }

    /// The bytes written but not yet taken by the socket; `nil` if the channel cannot say.
    public func waitingBytes() async -> Int? {
        try? await channel.getOption(.bufferedWritableBytes).get()
    }

    /// Writes frames with their length prefixes, in one flush.
    public func write(_ payloads: [Data]) async throws {
        guard !payloads.isEmpty else { return }
        // Straight into one buffer of the right size: no frame is built on its own first.
        var buffer = ByteBuffer()
        buffer.reserveCapacity(payloads.reduce(0) { $0 + FrameFormat.headerLength + $1.count })
        for payload in payloads {
            let header = try FrameFormat.header(for: payload, maximumLength: maximumLength)
            buffer.writeMultipleIntegers(header.high, header.low)
            buffer.writeBytes(payload)
        }
        try await outbound.write(buffer)
    }

    /// Writes raw bytes, for tests that play a misbehaving peer.
    public func writeRaw(_ bytes: Data) async throws {
        try await outbound.write(ByteBuffer(bytes: bytes))
    }
}
