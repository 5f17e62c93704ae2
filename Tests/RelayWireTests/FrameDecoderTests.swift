import Foundation
import RelayCore
import RelayWire
import Testing

@Suite struct FrameDecoderTests {
    private func payloads(count: Int, using random: inout SplitMix64) -> [Data] {
        (0..<count).map { index in
            let length = Int.random(in: 1...300, using: &random)
            return Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &+ index) })
        }
    }

    @Test(arguments: [1, 2, 3, 42, 1000] as [UInt64])
    func randomSplitsOfALongStreamGiveEveryFrameOnce(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        let sent = payloads(count: 500, using: &random)
        var stream = Data()
        for payload in sent { stream.append(try FrameFormat.encode(payload)) }

        var decoder = FrameDecoder()
        var received: [Data] = []
        var offset = 0
        while offset < stream.count {
            let size = min(Int.random(in: 1...700, using: &random), stream.count - offset)
            decoder.append(stream.subdata(in: offset..<offset + size))
            offset += size
            while let frame = try decoder.nextFrame() { received.append(frame) }
        }
        try decoder.finish()
        #expect(received == sent, "seed \(seed)")
    }

    @Test func severalFramesInOneReadAndOneByteAtATime() throws {
        let frames = try [Data([1]), Data([2, 3]), Data(repeating: 9, count: 8192)].map { try FrameFormat.encode($0) }
        var decoder = FrameDecoder()
        decoder.append(frames[0] + frames[1])
        #expect(try decoder.nextFrame() == Data([1]))
        #expect(try decoder.nextFrame() == Data([2, 3]))
        #expect(try decoder.nextFrame() == nil)
        for byte in frames[2] {
            #expect(try decoder.nextFrame() == nil)
            decoder.append(Data([byte]))
        }
        #expect(try decoder.nextFrame()?.count == 8192)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func oversizedFrameFailsAndStaysFailed() throws {
        var decoder = FrameDecoder(maximumLength: 100)
        decoder.append(Data([0, 101]) + Data(repeating: 0, count: 101))
        #expect(throws: FrameError.oversized(length: 101, maximum: 100)) { try decoder.nextFrame() }
        decoder.append(try FrameFormat.encode(Data([1])))
        #expect(throws: FrameError.oversized(length: 101, maximum: 100)) { try decoder.nextFrame() }
    }

    @Test func zeroLengthAndTruncationAreErrors() throws {
        var empty = FrameDecoder()
        empty.append(Data([0, 0]))
        #expect(throws: FrameError.empty) { try empty.nextFrame() }

        var truncated = FrameDecoder()
        truncated.append(Data([0, 5, 1, 2]))
        #expect(try truncated.nextFrame() == nil)
        #expect(throws: FrameError.truncated(bufferedBytes: 4)) { try truncated.finish() }
    }

    @Test func garbageNeverTrapsOrHangs() throws {
        var random = SplitMix64(state: 7)
        for _ in 0..<2000 {
            var decoder = FrameDecoder(maximumLength: 512)
            let junk = Data((0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            decoder.append(junk)
            var frames = 0
            do {
                while try decoder.nextFrame() != nil { frames += 1 }
            } catch {
                #expect(error == .empty || { if case .oversized = error { true } else { false } }())
            }
            #expect(frames <= junk.count / 3)
        }
    }

    @Test func encoderRefusesWhatTheDecoderWouldRefuse() {
        #expect(throws: FrameError.empty) { try FrameFormat.encode(Data()) }
        #expect(throws: FrameError.oversized(length: 16_385, maximum: 16_384)) {
            try FrameFormat.encode(Data(count: 16_385))
        }
    }
}

@Suite struct PreambleTests {
    @Test func offerAndAnswerRoundTrip() throws {
        let offer = Preamble.Offer(versions: 1...3, mode: .session)
        #expect(offer.encoded.count == Preamble.length)
        #expect(try Preamble.Offer(decoding: offer.encoded) == offer)
        let answer = Preamble.Answer(version: 2, status: .accepted, versions: 2...5)
        #expect(try Preamble.Answer(decoding: answer.encoded) == answer)
    }

    @Test func negotiationPicksTheHighestCommonVersion() {
        #expect(Preamble.negotiate(1...3, 2...5) == 3)
        #expect(Preamble.negotiate(1...1, 1...1) == 1)
        #expect(Preamble.negotiate(1...1, 2...3) == nil)
    }

    @Test func strangersAndBrokenPreamblesAreRefused() {
        #expect(throws: PreambleError.notRelay) { try Preamble.Offer(decoding: Data("GET / HT".utf8)) }
        #expect(throws: PreambleError.self) { try Preamble.Offer(decoding: Data("RLAY".utf8)) }
        #expect(throws: PreambleError.self) { try Preamble.Offer(decoding: Preamble.magic + Data([3, 1, 1, 0])) }
        #expect(throws: PreambleError.self) { try Preamble.Offer(decoding: Preamble.magic + Data([1, 1, 9, 0])) }
        #expect(throws: PreambleError.self) { try Preamble.Answer(decoding: Preamble.magic + Data([1, 7, 1, 1])) }
    }

    @Test func thePrologueBindsBothPreambles() {
        let offer = Preamble.Offer(mode: .pair)
        let answer = Preamble.Answer(version: 1, status: .accepted)
        let tampered = Preamble.Offer(versions: 1...1, mode: .session)
        #expect(Preamble.prologue(offer: offer, answer: answer) != Preamble.prologue(offer: tampered, answer: answer))
    }
}
