public import Foundation
public import RelayNoise
public import RelayWire

/// Opens a link: the cleartext preamble exchange, then the Noise handshake —
/// `Noise_XX` to pair, `Noise_KK` with the stored keys for every later session.
///
/// A state machine: feed it the frames that arrive and carry out the steps it returns.
/// It does no I/O and keeps no time; the caller closes the connection after `.failed`
/// (having sent any frame returned before it) and calls `finish()` after `.established`.
public struct LinkHandshake: ~Copyable {
    /// What the caller must do next.
    public enum Step: Sendable, Hashable {
        /// Send this frame payload.
        case send(Data)
        /// The handshake is complete: call `finish()`.
        case established
        /// Give up and close the connection (after sending what came before).
        case failed(LinkFailure)
    }

    /// What the initiator (the phone) asks for.
    public enum Intent: Sendable, Hashable {
        /// Pair with a new partner.
        case pair
        /// Resume a session with the partner whose public key is given.
        case session(partnerKey: Data)
    }

    /// What the responder (the wearable) accepts.
    public struct Acceptance: Sendable, Hashable {
        /// Whether a new partner may pair now (pairing mode).
        public var pairable: Bool
        /// The stored partner's public key, if the device is paired.
        public var partnerKey: Data?

        /// Creates an acceptance policy.
        public init(pairable: Bool, partnerKey: Data?) {
            self.pairable = pairable
            self.partnerKey = partnerKey
        }
    }

    private enum Phase {
        case initiatorIdle(Intent)
        case awaitingAnswer(Preamble.Offer, Intent)
        case awaitingOffer(Acceptance)
        case noise
        case done
    }

    private let localKey: StaticKeyPair
    private let versions: ClosedRange<UInt8>
    private var phase: Phase
    private var noise: HandshakeState?
    private var mode: Preamble.Mode = .pair
    private var version: UInt8 = 0

    /// The initiator's side (the phone).
    public init(initiating intent: Intent, localKey: StaticKeyPair, versions: ClosedRange<UInt8> = Preamble.supportedVersions) {
        self.localKey = localKey
        self.versions = versions
        phase = .initiatorIdle(intent)
    }

    /// The responder's side (the wearable).
    public init(responding acceptance: Acceptance, localKey: StaticKeyPair, versions: ClosedRange<UInt8> = Preamble.supportedVersions) {
        self.localKey = localKey
        self.versions = versions
        phase = .awaitingOffer(acceptance)
    }

    /// The initiator's first step: its preamble. The responder has no first step.
    public mutating func start() -> [Step] {
        guard case .initiatorIdle(let intent) = phase else { return [] }
        let offer = Preamble.Offer(versions: versions, mode: intent == .pair ? .pair : .session)
        phase = .awaitingAnswer(offer, intent)
        return [.send(offer.encoded)]
    }

    /// Handles a frame from the peer.
    public mutating func receive(_ frame: Data) -> [Step] {
        switch phase {
        case .initiatorIdle:
            return fail(.unexpectedFrame("a frame before the initiator's preamble"))
        case .awaitingAnswer(let offer, let intent):
            return receiveAnswer(frame, offer: offer, intent: intent)
        case .awaitingOffer(let acceptance):
            return receiveOffer(frame, acceptance: acceptance)
        case .noise:
            return receiveNoise(frame)
        case .done:
            return fail(.unexpectedFrame("a handshake frame after the handshake"))
        }
    }

    /// The established session; valid only after `.established`.
    public consuming func finish() throws(LinkFailure) -> EstablishedLink {
        guard case .done = phase, let handshake = noise.take() else {
            throw .unexpectedFrame("finish() before the handshake completed")
        }
        let remoteKey = handshake.remoteStaticKey?.rawRepresentation ?? Data()
        let hash = handshake.handshakeHash
        do {
            return EstablishedLink(
                session: try handshake.finish(), version: version, mode: mode, remoteStaticKey: remoteKey,
                handshakeHash: hash)
        } catch {
            throw .handshakeFailed(error)
        }
    }

    // MARK: Preamble

    private mutating func receiveAnswer(_ frame: Data, offer: Preamble.Offer, intent: Intent) -> [Step] {
        let answer: Preamble.Answer
        do {
            answer = try Preamble.Answer(decoding: frame)
        } catch {
            return fail(error == .notRelay ? .notRelay : .malformedPreamble(error.description))
        }
        switch answer.status {
        case .accepted:
            guard offer.versions.contains(answer.version) else {
                return fail(.malformedPreamble("the peer chose version \(answer.version), which was not offered"))
            }
        case .unsupportedVersion:
            return fail(.versionMismatch(local: versions, remote: answer.versions))
        case .notPairable, .notPaired:
            return fail(.refused(answer.status))
        }
        mode = offer.mode
        version = answer.version
        let prologue = Preamble.prologue(offer: offer, answer: answer)
        do {
            var handshake: HandshakeState
            switch intent {
            case .pair:
                handshake = try HandshakeState(
                    pattern: .xx, role: .initiator, prologue: prologue, localStaticKey: try localKey.cryptoKey)
            case .session(let partnerKey):
                handshake = try HandshakeState(
                    pattern: .kk, role: .initiator, prologue: prologue, localStaticKey: try localKey.cryptoKey,
                    remoteStaticKey: try PublicKeyText.cryptoKey(partnerKey))
            }
            let first = try handshake.writeMessage()
            noise = consume handshake
            phase = .noise
            return [.send(first)]
        } catch let error as NoiseError {
            return fail(.handshakeFailed(error))
        } catch {
            return fail(.malformedPreamble("\(error)"))
        }
    }

    private mutating func receiveOffer(_ frame: Data, acceptance: Acceptance) -> [Step] {
        let offer: Preamble.Offer
        do {
            offer = try Preamble.Offer(decoding: frame)
        } catch {
            return fail(error == .notRelay ? .notRelay : .malformedPreamble(error.description))
        }
        guard let chosen = Preamble.negotiate(versions, offer.versions) else {
            let answer = Preamble.Answer(version: 0, status: .unsupportedVersion, versions: versions)
            return [.send(answer.encoded)] + fail(.versionMismatch(local: versions, remote: offer.versions))
        }
        let refusal: Preamble.Status? =
            switch offer.mode {
            case .pair: acceptance.pairable ? nil : .notPairable
            case .session: acceptance.partnerKey == nil ? .notPaired : nil
            }
        if let refusal {
            let answer = Preamble.Answer(version: 0, status: refusal, versions: versions)
            return [.send(answer.encoded)] + fail(.refusedOffer(refusal))
        }
        let answer = Preamble.Answer(version: chosen, status: .accepted, versions: versions)
        let prologue = Preamble.prologue(offer: offer, answer: answer)
        mode = offer.mode
        version = chosen
        do {
            switch offer.mode {
            case .pair:
                noise = try HandshakeState(
                    pattern: .xx, role: .responder, prologue: prologue, localStaticKey: try localKey.cryptoKey)
            case .session:
                noise = try HandshakeState(
                    pattern: .kk, role: .responder, prologue: prologue, localStaticKey: try localKey.cryptoKey,
                    remoteStaticKey: try PublicKeyText.cryptoKey(acceptance.partnerKey ?? Data()))
            }
        } catch let error as NoiseError {
            return fail(.handshakeFailed(error))
        } catch {
            return fail(.malformedPreamble("\(error)"))
        }
        phase = .noise
        return [.send(answer.encoded)]
    }

    // MARK: Noise

    private mutating func receiveNoise(_ frame: Data) -> [Step] {
        guard var handshake = noise.take() else { return fail(.unexpectedFrame("no handshake in progress")) }
        do {
            guard handshake.status == .readMessage else {
                noise = consume handshake
                return fail(.unexpectedFrame("a frame while it is this side's turn to write"))
            }
            _ = try handshake.readMessage(frame)
            var steps: [Step] = []
            if handshake.status == .writeMessage {
                steps.append(.send(try handshake.writeMessage()))
            }
            if handshake.isComplete {
                phase = .done
                steps.append(.established)
            }
            noise = consume handshake
            return steps
        } catch {
            return fail(.handshakeFailed(error))
        }
    }

    private mutating func fail(_ failure: LinkFailure) -> [Step] {
        phase = .done
        noise = nil
        return [.failed(failure)]
    }
}

/// A link whose handshake completed: the encrypted session and what was agreed.
public struct EstablishedLink: ~Copyable {
    /// Encrypts and decrypts the session's frames.
    public var session: TransportSession
    /// The negotiated protocol version.
    public let version: UInt8
    /// Whether this session pairs or resumes.
    public let mode: Preamble.Mode
    /// The peer's authenticated static public key.
    public let remoteStaticKey: Data
    /// The Noise handshake hash, identical on both sides; the pairing code derives from it.
    public let handshakeHash: Data
}
