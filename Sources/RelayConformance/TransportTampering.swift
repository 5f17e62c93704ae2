import Foundation
import RelayWire

/// The ways §6 says a transport message can go wrong on the way — sent again, changed, or not
/// a message at all — each of which must close the connection without an `Error` (an `Error`
/// would be sealed under a cipher state the peer can no longer trust). Both sides' suites run
/// every one inside an established session.
enum TransportTampering: CaseIterable, Sendable {
    /// A ping sent twice, the second time after its pong: the same nonce again.
    case replayed
    /// A ping with one bit of its ciphertext changed.
    case altered
    /// 40 bytes that were never sealed.
    case forged

    /// The case's name in the suite's output.
    var caseName: String {
        switch self {
        case .replayed: "a transport message sent again (replayed) closes the connection without an Error"
        case .altered: "a transport message with one bit changed closes the connection without an Error"
        case .forged: "a transport message that does not authenticate closes the connection without an Error"
        }
    }

    /// Sends the tampered message into `script`'s session and waits for the close.
    func check(_ script: WireScript) async throws {
        switch self {
        case .replayed:
            let ping = try script.sealedPing()
            try await script.sendFrame(ping.frame)
            try await script.receivePong(ping.id)
            try await script.sendFrame(ping.frame)
        case .altered:
            var ping = try script.sealedPing().frame
            ping[ping.startIndex + ping.count / 2] ^= 0x01
            try await script.sendFrame(ping)
        case .forged:
            try await script.sendFrame(Data(repeating: 0x5A, count: 40))
        }
        let frames = try await script.expectClose("§6", "a \(self) transport message")
        if let error = script.errorEnvelope(in: frames) {
            throw ConformanceFailure("§9", "an Error was sent after a \(self) transport message: \(error.message)")
        }
    }
}
