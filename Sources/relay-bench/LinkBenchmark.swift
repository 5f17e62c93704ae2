import ArgumentParser
import Foundation
import Glibc
import RelayCore
import RelayLink
import RelayTestSupport
import RelayTransport
import RelayWire

/// Messages per second through a Noise session: in memory, and end to end over a socketpair.
struct LinkBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Noise session throughput: messages per second and microseconds per message.")

    @Option(help: "Messages to send.")
    var count: Int = 200_000

    func run() async throws {
        try inMemory()
        try await overSocketpair()
    }

    /// Both sessions in one process, no sockets: encryption, envelopes, logs and acknowledgements.
    private func inMemory() throws {
        let phoneKey = StaticKeyPair.generate()
        let wearableKey = StaticKeyPair.generate()
        var phone = DurableSide(epoch: 1)
        var wearable = DurableSide(epoch: 2)
        phone.window = 64
        let now = ContinuousClock.now
        var pair = try connect(phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: now)
        for frame in perform(pair.phone.start(), on: &pair.phone, state: &phone).frames {
            _ = perform(pair.wearable.receive(frame, at: now), on: &pair.wearable, state: &wearable)
        }
        for frame in perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames {
            _ = perform(pair.phone.receive(frame, at: now), on: &pair.phone, state: &phone)
        }
        let start = ContinuousClock.now
        for key in 1...UInt64(count) {
            let body = upsert(key)
            phone.pending.append(.init(seq: phone.nextSeq, body: body))
            for frame in perform(pair.phone.enqueue(body), on: &pair.phone, state: &phone).frames {
                _ = perform(pair.wearable.receive(frame, at: now), on: &pair.wearable, state: &wearable)
            }
            if key % 32 == 0 {
                for frame in perform(pair.wearable.flushAcknowledgement(), on: &pair.wearable, state: &wearable).frames {
                    for sent in perform(pair.phone.receive(frame, at: now), on: &pair.phone, state: &phone).frames {
                        _ = perform(pair.wearable.receive(sent, at: now), on: &pair.wearable, state: &wearable)
                    }
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        guard wearable.received.count == count else {
            print("in memory: only \(wearable.received.count) of \(count) messages arrived")
            throw ExitCode.failure
        }
        let rate = report("in memory, both sessions (encrypt, log, decrypt, deliver)", messages: count, bytes: 0, elapsed: elapsed)
        FigureLog.record(
            "link", "both sessions in one process (encrypt, envelope, log, decrypt, deliver): messages/s · µs/message",
            "\(FigureFormat.grouped(Int(rate))) · \(FigureFormat.fixed(1e6 / rate, 1))")
    }

    /// Both agents' sessions over a real socketpair, with acknowledgements and the window.
    private func overSocketpair() async throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw ExitCode.failure }
        let phoneConnection = try await Transport.adopt(descriptor: fds[0], peer: "bench[0]")
        let wearableConnection = try await Transport.adopt(descriptor: fds[1], peer: "bench[1]")
        let phoneKey = StaticKeyPair.generate()
        let wearableKey = StaticKeyPair.generate()
        let total = UInt64(count)
        let start = ContinuousClock.now
        async let phone: RunOutcome = {
            var state = DurableSide(epoch: 1)
            var sent: UInt64 = 0
            return try await runSide(
                over: phoneConnection, initiator: true, localKey: phoneKey, partnerKey: wearableKey.publicKey,
                state: &state, sent: &sent, total: total, entry: upsert, expecting: 0)
        }()
        async let wearable: RunOutcome = {
            var state = DurableSide(epoch: 2)
            var sent: UInt64 = 0
            return try await runSide(
                over: wearableConnection, initiator: false, localKey: wearableKey, partnerKey: phoneKey.publicKey,
                state: &state, sent: &sent, total: 0, entry: fired, expecting: total)
        }()
        _ = try await (phone, wearable)
        let rate = report("socketpair, both sessions, window 64", messages: count, bytes: 0, elapsed: .now - start)
        print("  target: ≥ 50,000 small messages per second on one core (release)")
        FigureLog.record(
            "link", "both sessions over a socketpair (framing, NIO, acknowledgements, window 64): messages/s · µs/message",
            "\(FigureFormat.grouped(Int(rate))) · \(FigureFormat.fixed(1e6 / rate, 1))", target: "≥ 50,000 messages/s",
            met: rate >= 50_000)
    }

    /// Prints a line for the run and returns its messages per second.
    @discardableResult
    private func report(_ label: String, messages: Int, bytes: Int, elapsed: Duration) -> Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = Double(messages) / seconds
        let sizeNote = bytes > 0 ? ", \(bytes)-byte envelopes" : ""
        print(String(format: "%@: %.0f messages/s, %.2f µs/message (%d messages in %.2f s%@)", label, rate, 1e6 / rate, messages, seconds, sizeNote))
        return rate
    }
}
