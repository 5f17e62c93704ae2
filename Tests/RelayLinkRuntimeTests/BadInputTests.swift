import Foundation
import Logging
import RelayLink
import RelayLinkRuntime
import RelayTransport
import RelayWire
import Testing

/// Every kind of bad input ends the same way: one log line naming the reason, and a
/// closed connection.
@Suite(.timeLimit(.minutes(1))) struct BadInputTests {
    enum Misbehaviour: String, CaseIterable, Sendable {
        case oversizedFrame, truncatedFrame, stalledHandshake, garbageBeforeHandshake, unsupportedVersion, unknownPeerKey
        case tamperedFrame, replayedFrame
    }

    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()

    static func sends(_ steps: [LinkHandshake.Step]) -> [Data] {
        steps.compactMap { if case .send(let frame) = $0 { frame } else { nil } }
    }

    /// Plays the phone's side correctly up to the session, then returns the first session frame.
    static func handshake(
        as key: StaticKeyPair, with partner: StaticKeyPair, reader: inout FrameReader, writer: FrameWriter
    ) async throws -> Data? {
        var handshake = LinkHandshake(initiating: .session(partnerKey: partner.publicKey), localKey: key)
        try await writer.write(sends(handshake.start()))
        while let batch = try await reader.nextBatch() {
            for frame in batch {
                let steps = handshake.receive(frame)
                try await writer.write(sends(steps))
                if steps.contains(.established) {
                    var session = LinkSession(
                        link: try handshake.finish(), hello: .with { $0.role = .phone },
                        logs: .init(outbound: OutboundLog(), ownEpoch: 1, inbound: InboundCursor(), peerEpoch: 0),
                        liveness: LivenessMonitor(now: .now))
                    return sends(session.start().compactMap { if case .send(let f) = $0 { .send(f) } else { nil } }).first
                }
                if case .failed? = steps.last { return nil }
            }
        }
        return nil
    }

    @Test(arguments: Misbehaviour.allCases)
    func badInputIsLoggedAndCloses(_ misbehaviour: Misbehaviour) async throws {
        let (peerEnd, wearableEnd) = try await connectedPair()
        let logs = LogRecorder()
        let wearable = LinkConnectionDriver(
            role: .responder(.init(pairable: false, partnerKey: phoneKey.publicKey)), localKey: wearableKey,
            hello: .with { $0.role = .wearable }, delegate: MemoryDelegate(epoch: 2, expecting: 0), logger: logs.logger,
            // Only the stalled handshake should ever reach the timeout; the others must fail
            // for their own reason however slow a loaded machine is.
            timeouts: misbehaviour == .stalledHandshake
                ? LinkTimeouts(heartbeat: .seconds(5), handshake: .milliseconds(300), silence: .seconds(30), writeStall: .seconds(30))
                : LinkTimeouts(heartbeat: .seconds(5), timeout: .seconds(30)))
        let (idle, _) = AsyncStream<LinkConnectionDriver.Command>.makeStream()
        async let outcome = wearable.run(wearableEnd, commands: idle)
        let phoneKey = phoneKey, wearableKey = wearableKey
        try await peerEnd.run { reader, writer in
            switch misbehaviour {
            case .oversizedFrame:
                try await writer.writeRaw(Data([0xFF, 0xFF]) + Data(count: 64))
            case .truncatedFrame:
                try await writer.writeRaw(Data([0, 10, 1, 2]))
                return  // closes the connection in the middle of the frame
            case .stalledHandshake:
                try await writer.writeRaw(Data([0, 10, 1, 2]))  // and then nothing
            case .garbageBeforeHandshake:
                try await writer.write([Data("GET / HT".utf8)])
            case .unsupportedVersion:
                try await writer.write([Preamble.Offer(versions: 5...6, mode: .session).encoded])
                _ = try? await reader.nextBatch()
            case .unknownPeerKey:
                _ = try await Self.handshake(as: StaticKeyPair.generate(), with: wearableKey, reader: &reader, writer: writer)
            case .tamperedFrame:
                guard var frame = try await Self.handshake(as: phoneKey, with: wearableKey, reader: &reader, writer: writer) else { return }
                frame[frame.startIndex + 3] ^= 0x10
                try await writer.write([frame])
            case .replayedFrame:
                guard let frame = try await Self.handshake(as: phoneKey, with: wearableKey, reader: &reader, writer: writer) else { return }
                try await writer.write([frame, frame])
            }
            // Wait for the wearable to close its end.
            while (try? await reader.nextBatch()) != nil {}
        }
        let ended = await outcome
        guard case .failed(let failure) = ended else {
            Issue.record("\(misbehaviour): the connection ended without a failure")
            return
        }
        let expected: String =
            switch misbehaviour {
            case .oversizedFrame: "frame of 65535 bytes"
            case .truncatedFrame: "in the middle of a frame"
            case .stalledHandshake: "the link is dead"
            case .garbageBeforeHandshake: "not a Relay agent"
            case .unsupportedVersion: "no common protocol version"
            case .unknownPeerKey: "handshake failed"
            case .tamperedFrame, .replayedFrame: "failed authentication"
            }
        #expect(failure.description.contains(expected), "\(misbehaviour): \(failure)")
        let warnings = logs.lines.withLock { $0 }.filter { $0.hasPrefix("warning: link closed:") }
        #expect(warnings == ["warning: link closed: \(failure)"])
    }
}
