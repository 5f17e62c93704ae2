public import Crypto
public import Foundation
import RelayNoise
public import RelayWire
import RelayTransport

/// One connection to the implementation under test, driven frame by frame: cleartext frames
/// and preambles as bytes, the Noise handshake through `RelayNoise`, then envelopes encrypted
/// and framed by hand. Nothing of Relay's own session code (`LinkSession`, `LinkHandshake`)
/// runs here, so the script checks the document, not the code against itself.
///
/// Used from one task at a time (a case's body).
public final class WireScript {
    private let writer: FrameWriter
    private let inbox: Arrivals<Data>
    /// How long the implementation may take to answer anything (the longest wait of a step).
    public let patience: Duration
    private var transport: Cipher?
    /// The highest entry of the implementation's log this side applied: carried as `ack` once
    /// the implementation's Hello has been received.
    public var ack: UInt64 = 0
    /// This side's log epoch on this connection, once its Hello is sent.
    public var epoch: UInt64 = 0
    private var nextPing: UInt64 = 1

    init(writer: FrameWriter, inbox: Arrivals<Data>, patience: Duration) {
        self.writer = writer
        self.inbox = inbox
        self.patience = patience
    }

    // MARK: Cleartext

    /// Writes bytes as they are, framing included (for malformed frames).
    public func sendRaw(_ bytes: Data) async throws {
        try await writer.writeRaw(bytes)
    }

    /// Writes one frame with `payload`.
    public func sendFrame(_ payload: Data) async throws {
        try await writer.write([payload])
    }

    /// Writes several frames at once (they may reach the implementation in one read).
    public func sendFrames(_ payloads: [Data]) async throws {
        try await writer.write(payloads)
    }

    /// The next frame from the implementation; fails the step if it closed instead.
    public func receiveFrame(within limit: Duration? = nil, _ section: String, _ what: String) async throws -> Data {
        let frame: Data?
        do {
            frame = try await inbox.next(within: limit ?? patience)
        } catch let timeout as ScriptTimeout {
            throw ConformanceFailure(section, "expected \(what); \(timeout)")
        } catch {
            throw ConformanceFailure(section, "expected \(what); the stream broke: \(error)")
        }
        guard let frame else { throw ConformanceFailure(section, "expected \(what); the implementation closed the connection") }
        return frame
    }

    /// Waits for the implementation to close the connection, and returns the frames it sent
    /// before (a refusal, an `Error`); fails the step if it keeps the connection open.
    public func expectClose(within limit: Duration? = nil, _ section: String, _ why: String) async throws -> [Data] {
        var frames: [Data] = []
        while true {
            do {
                guard let frame = try await inbox.next(within: limit ?? patience) else { return frames }
                frames.append(frame)
            } catch let timeout as ScriptTimeout {
                throw ConformanceFailure(section, "expected the connection to close (\(why)); it stayed open: \(timeout)")
            } catch {
                // A reset or a broken frame at the end is a close too.
                return frames
            }
        }
    }

    // MARK: Preamble and handshake

    /// §4 and §5.2: offers session mode, checks the answer, and runs `Noise_KK` as the phone.
    public func openSession(phoneKey: Curve25519.KeyAgreement.PrivateKey, wearableKey: Curve25519.KeyAgreement.PublicKey)
        async throws
    {
        let offer = Preambles.offer(lowest: 1, highest: 1, mode: 2)
        try await sendFrame(offer)
        let answer = try await receiveFrame("§4.4", "the preamble answer")
        guard answer == Preambles.answer(version: 1, status: 0, lowest: 1, highest: 1) else {
            throw ConformanceFailure("§4.4", "expected the answer 524c4159 01 00 01 01 (accepted, version 1); got \(answer.hexString)")
        }
        var handshake = try HandshakeState(
            pattern: .kk, role: .initiator, prologue: Preambles.prologue(offer: offer, answer: answer),
            localStaticKey: phoneKey, remoteStaticKey: wearableKey)
        try await sendFrame(try handshake.writeMessage())
        let second = try await receiveFrame("§5.2", "KK 2 (48 bytes)")
        do {
            _ = try handshake.readMessage(second)
        } catch {
            throw ConformanceFailure("§5.2", "KK 2 did not authenticate: \(error)")
        }
        begin(try handshake.finish())
    }

    /// §4.1 and §4.3: takes the phone's offer and checks it: `RLAY`, a range holding version 1,
    /// `mode` (2, session, for a paired phone), the reserved byte 0. Returns it.
    public func receiveOffer(mode: UInt8) async throws -> Data {
        let offer = try await receiveFrame("§4.1", "the phone's offer")
        try Preambles.check(offer: offer, mode: mode)
        return offer
    }

    /// §4 and §5.2 as the wearable: takes the offer, accepts version 1, and runs `Noise_KK` as
    /// the responder. The phone's Hello comes next.
    public func acceptSession(wearableKey: Curve25519.KeyAgreement.PrivateKey, phoneKey: Curve25519.KeyAgreement.PublicKey)
        async throws
    {
        let offer = try await receiveOffer(mode: 2)
        let answer = Preambles.answer(version: 1, status: 0, lowest: 1, highest: 1)
        try await sendFrame(answer)
        var handshake = try HandshakeState(
            pattern: .kk, role: .responder, prologue: Preambles.prologue(offer: offer, answer: answer),
            localStaticKey: wearableKey, remoteStaticKey: phoneKey)
        let first = try await receiveFrame("§5.2", "KK 1 (48 bytes)")
        do {
            _ = try handshake.readMessage(first)
        } catch {
            throw ConformanceFailure("§5.2", "KK 1 did not authenticate: \(error)")
        }
        try await sendFrame(try handshake.writeMessage())
        begin(try handshake.finish())
    }

    /// Encrypts the rest of the connection under a finished handshake's cipher states.
    func begin(_ session: consuming TransportSession) {
        transport = Cipher(session)
    }

    // MARK: Envelopes

    /// Encrypts and sends an envelope as it is (its `ack` included).
    public func send(_ envelope: Relay_V1_Envelope) async throws {
        guard let transport else { preconditionFailure("send before the handshake") }
        try await sendFrame(try transport.encrypt(try envelope.serializedData()))
    }

    /// The frame payload `body` would be sent as (outside the log, with the current `ack`),
    /// encrypted under the next nonce, which it uses up: for sending it twice.
    public func sealed(_ body: Relay_V1_Envelope.OneOf_Body) throws -> Data {
        var envelope = Relay_V1_Envelope()
        envelope.ack = ack
        envelope.body = body
        return try sealed(envelope)
    }

    /// `envelope` encrypted under the next nonce, for `sendFrames`.
    public func sealed(_ envelope: Relay_V1_Envelope) throws -> Data {
        guard let transport else { preconditionFailure("sealed before the handshake") }
        return try transport.encrypt(try envelope.serializedData())
    }

    /// Sends `body` outside the log (`seq = 0`) with the current `ack`.
    public func send(_ body: Relay_V1_Envelope.OneOf_Body, seq: UInt64 = 0) async throws {
        var envelope = Relay_V1_Envelope()
        envelope.seq = seq
        envelope.ack = ack
        envelope.body = body
        try await send(envelope)
    }

    /// Sends raw bytes as an encrypted transport message (for bytes that are not an envelope).
    public func sendEncrypted(_ plaintext: Data) async throws {
        guard let transport else { preconditionFailure("send before the handshake") }
        try await sendFrame(try transport.encrypt(plaintext))
    }

    /// The next envelope; pings are answered at once (§8.7) and skipped unless `keepingPings`.
    public func receive(within limit: Duration? = nil, _ section: String, _ what: String, keepingPings: Bool = false)
        async throws -> Relay_V1_Envelope
    {
        guard let transport else { preconditionFailure("receive before the handshake") }
        while true {
            let frame = try await receiveFrame(within: limit, section, what)
            let plaintext: Data
            do {
                plaintext = try transport.decrypt(frame)
            } catch {
                throw ConformanceFailure("§6", "a transport message did not decrypt: \(error)")
            }
            let envelope: Relay_V1_Envelope
            do {
                envelope = try Relay_V1_Envelope(serializedBytes: plaintext)
            } catch {
                throw ConformanceFailure("§8.1", "a transport message is not an Envelope: \(error)")
            }
            if !keepingPings, case .heartbeat(let beat) = envelope.body, !beat.reply {
                var pong = Relay_V1_Heartbeat()
                pong.id = beat.id
                pong.reply = true
                try await send(.heartbeat(pong))
                continue
            }
            return envelope
        }
    }

    /// §8.3: the implementation's first envelope, which must be its Hello with `seq` and `ack`
    /// 0, the `role` expected, and an epoch that is not 0.
    public func receiveHello(role: Relay_V1_Role) async throws -> Relay_V1_Hello {
        let first = try await receive("§8.3", "the implementation's Hello")
        guard case .hello(let hello) = first.body else {
            throw ConformanceFailure("§8.3", "the first envelope is not a Hello: \(first.body.map { "\($0)" } ?? "no body")")
        }
        guard first.seq == 0, first.ack == 0 else {
            throw ConformanceFailure("§8.1", "the Hello carries seq \(first.seq), ack \(first.ack); both must be 0")
        }
        guard hello.role == role else { throw ConformanceFailure("§8.3", "the Hello's role is \(hello.role), not \(role)") }
        guard hello.logEpoch != 0 else { throw ConformanceFailure("§8.2", "the Hello's log epoch is 0") }
        return hello
    }

    /// Receives until an envelope satisfies `accepts`, within `limit` overall.
    public func receive(
        within limit: Duration? = nil, _ section: String, _ what: String, until accepts: (Relay_V1_Envelope) -> Bool
    ) async throws -> Relay_V1_Envelope {
        let deadline = ContinuousClock.now + (limit ?? patience)
        while true {
            let left = deadline - .now
            guard left > .zero else { throw ConformanceFailure(section, "expected \(what) within \(limit ?? patience)") }
            let envelope = try await receive(within: left, section, what)
            if accepts(envelope) { return envelope }
        }
    }

    /// A fresh ping id for this connection.
    public func pingID() -> UInt64 {
        defer { nextPing += 1 }
        return nextPing
    }

    /// A ping (§8.7) with a fresh id, sealed for sending (once, or twice to replay it).
    public func sealedPing() throws -> (id: UInt64, frame: Data) {
        let id = pingID()
        return (id, try sealed(.heartbeat(Self.ping(id))))
    }

    /// Waits for the pong of ping `id`; `what` says what it shows, for the failure.
    public func receivePong(_ id: UInt64, _ section: String = "§8.7", _ what: String? = nil) async throws {
        _ = try await receive(section, what ?? "the pong for ping \(id)") { envelope in
            guard case .heartbeat(let beat) = envelope.body else { return false }
            return beat.reply && beat.id == id
        }
    }

    /// Sends a ping and waits for its pong: the implementation has read all sent before it.
    public func roundTrip(_ section: String = "§8.7", _ what: String? = nil) async throws {
        let id = pingID()
        try await send(.heartbeat(Self.ping(id)))
        try await receivePong(id, section, what)
    }

    /// Sends a ping and returns what the implementation sent before its pong: everything it
    /// had to say about what was sent before the ping, for a case that checks nothing came.
    public func envelopesBeforePong(_ section: String, _ what: String) async throws -> [Relay_V1_Envelope] {
        let id = pingID()
        try await send(.heartbeat(Self.ping(id)))
        var before: [Relay_V1_Envelope] = []
        while true {
            let envelope = try await receive(section, what)
            if case .heartbeat(let beat) = envelope.body, beat.reply, beat.id == id { return before }
            before.append(envelope)
        }
    }

    /// Acknowledges `envelope` if it is an entry of the implementation's log (§8.6).
    public func acknowledge(_ envelope: Relay_V1_Envelope) async throws {
        guard envelope.seq > ack else { return }
        ack = envelope.seq
        var acknowledgement = Relay_V1_Envelope()
        acknowledgement.ack = ack
        try await send(acknowledgement)
    }

    /// A ping (not a pong) with `id`.
    static func ping(_ id: UInt64) -> Relay_V1_Heartbeat {
        var beat = Relay_V1_Heartbeat()
        beat.id = id
        return beat
    }

    /// Waits for the implementation to close after an `Error` with `code` (§9), and fails
    /// the step if it closed without one or kept the connection open.
    public func expectError(_ code: Relay_V1_ErrorCode, _ section: String, _ why: String) async throws {
        let frames = try await expectClose(section, why)
        guard let error = errorEnvelope(in: frames) else {
            throw ConformanceFailure(section, "expected Error{\(code)} before the close (\(why)); the connection closed without one")
        }
        guard error.code == code else {
            throw ConformanceFailure(section, "expected Error{\(code)} (\(why)); got Error{\(error.code), \"\(error.message)\"}")
        }
    }

    /// The first `Error` among frames received in the session, decrypted in order; frames
    /// that do not decrypt end the search (nothing after them can be read).
    public func errorEnvelope(in frames: [Data]) -> Relay_V1_Error? {
        guard let transport else { return nil }
        for frame in frames {
            guard let plaintext = try? transport.decrypt(frame), let envelope = try? Relay_V1_Envelope(serializedBytes: plaintext)
            else { return nil }
            if case .error(let error) = envelope.body { return error }
        }
        return nil
    }

    /// §8.7: this side falls silent (answers nothing) and the implementation must close the
    /// session, without an `Error`, once its dead-link timeout (15 s) has passed since the last
    /// frame this side sent, and within `patience` after that.
    public func expectDeadLinkClose(sinceLastSent lastSent: ContinuousClock.Instant) async throws {
        let timeout = Duration.seconds(15)
        // Each wait is as long as the whole bound: an idle implementation may not ping at all.
        let frames = try await expectClose(within: timeout + patience, "§8.7", "a session silent for the dead-link timeout")
        let silence = ContinuousClock.now - lastSent
        if let error = errorEnvelope(in: frames) {
            throw ConformanceFailure("§9", "an Error was sent when the link went silent: \(error.message)")
        }
        // A tick's worth of slack below: the close is seen here a little after it happened.
        guard silence >= timeout - .milliseconds(500) else {
            throw ConformanceFailure("§8.7", "the session was closed \(silence) into the silence, before the dead-link timeout of 15 s")
        }
        guard silence <= timeout + patience else {
            throw ConformanceFailure("§8.7", "the session was closed only \(silence) into the silence (timeout 15 s, patience \(patience))")
        }
    }

    /// Waits for the implementation to close without sending anything (§5.3, §6).
    public func expectSilentClose(_ section: String, _ why: String) async throws {
        let frames = try await expectClose(section, why)
        guard frames.isEmpty else {
            throw ConformanceFailure(section, "expected a close without anything sent (\(why)); \(frames.count) frame(s) came first")
        }
    }
}

/// The session's two cipher states; a class, so that the script can hold the non-copyable
/// `TransportSession` and use it from its methods.
private final class Cipher {
    var session: TransportSession

    init(_ session: consuming TransportSession) {
        self.session = session
    }

    func encrypt(_ plaintext: Data) throws -> Data { try session.encrypt(plaintext) }
    func decrypt(_ message: Data) throws -> Data { try session.decrypt(message) }
}

/// §4's preambles and §4.6's prologue, written out from the document.
public enum Preambles {
    static let magic = Data([0x52, 0x4C, 0x41, 0x59])

    /// An offer (§4.1).
    public static func offer(lowest: UInt8, highest: UInt8, mode: UInt8, reserved: UInt8 = 0) -> Data {
        magic + [lowest, highest, mode, reserved]
    }

    /// An answer (§4.2).
    public static func answer(version: UInt8, status: UInt8, lowest: UInt8, highest: UInt8) -> Data {
        magic + [version, status, lowest, highest]
    }

    /// Fails unless `offer` is 8 bytes: `RLAY`, a range holding version 1, `mode`, reserved 0 (§4.1, §4.3).
    static func check(offer: Data, mode: UInt8) throws {
        guard offer.count == 8, offer.prefix(4) == magic else {
            throw ConformanceFailure("§4.1", "the offer is not 8 bytes starting RLAY: \(offer.hexString)")
        }
        let bytes = [UInt8](offer)
        guard bytes[4] <= 1, 1 <= bytes[5], bytes[6] == mode, bytes[7] == 0 else {
            throw ConformanceFailure(
                "§4.1", "expected an offer of a range holding version 1, mode \(mode), reserved 0; got \(offer.hexString)")
        }
    }

    /// The Noise prologue (§4.6).
    static func prologue(offer: Data, answer: Data) -> Data {
        Data("Relay link prologue".utf8) + offer + answer
    }
}
