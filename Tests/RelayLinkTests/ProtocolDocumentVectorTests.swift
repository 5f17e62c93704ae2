import Crypto
import Foundation
import RelayCore
@testable import RelayLink
import RelayNoise
import RelayWire
import Testing

// Every worked example and test vector in Docs/PROTOCOL.md, checked against the code.
// The hex strings are copied from the document as written there (spaces and case are
// ignored); when the document changes, these must change with it.

/// Hex as the document writes it, without spaces, in lower case.
private func documented(_ text: String) -> String {
    text.filter { !$0.isWhitespace }.lowercased()
}

/// The document's hex as bytes.
private func bytes(_ text: String) -> Data {
    let digits = Array(documented(text))
    precondition(digits.count % 2 == 0, "odd number of hex digits in \(text)")
    return Data(stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! })
}

private func hex(_ data: Data) -> String {
    data.map { String(format: "%02x", $0) }.joined()
}

/// A frame on the wire: the 2-byte header, then the payload.
private func frame(_ payload: Data) throws -> String {
    hex(try FrameFormat.encode(payload))
}

/// The suites below, one per part of the document.
@Suite enum ProtocolDocumentVectorTests {}

// MARK: - §3 and §4: framing and preambles

extension ProtocolDocumentVectorTests {
    @Suite struct PreambleDocumentVectors {
        let wearableKey = StaticKeyPair.generate()

        /// The first frame a responder with this policy sends in reply to `offer`.
        private func answer(
            to offer: Preamble.Offer, pairable: Bool, partnerKey: Data?, versions: ClosedRange<UInt8> = Preamble.supportedVersions
        ) throws -> Data {
            var responder = LinkHandshake(
                responding: .init(pairable: pairable, partnerKey: partnerKey), localKey: wearableKey, versions: versions)
            let steps = responder.receive(offer.encoded)
            for case .send(let payload) in steps { return payload }
            Issue.record("the responder sent nothing: \(steps)")
            return Data()
        }

        @Test func anHTTPRequestFailsAtTheFrameHeader() {
            // §3: "GE" of an HTTP request reads as 18245, above the maximum.
            var decoder = FrameDecoder()
            decoder.append(Data("GET / HTTP/1.1\r\n".utf8))
            #expect(FrameFormat.defaultMaximumLength == 16_384)
            #expect(throws: FrameError.oversized(length: 18_245, maximum: 16_384)) { try decoder.nextFrame() }
        }

        @Test func thePairingExampleOnTheWire() throws {
            // §4.7 pairing, and §18.2 offer and answer frames.
            let offer = Preamble.Offer(versions: 1...1, mode: .pair)
            #expect(try frame(offer.encoded) == documented("00 08  52 4C 41 59  01 01 01 00"))
            #expect(try frame(offer.encoded) == documented("0008524c415901010100"))
            let phoneKey = StaticKeyPair.generate()
            var phone = LinkHandshake(initiating: .pair, localKey: phoneKey)
            #expect(phone.start() == [.send(offer.encoded)])

            let answer = try answer(to: offer, pairable: true, partnerKey: nil)
            #expect(try frame(answer) == documented("00 08  52 4C 41 59  01 00 01 01"))
            #expect(try frame(answer) == documented("0008524c415901000101"))
            #expect(try Preamble.Answer(decoding: answer) == Preamble.Answer(version: 1, status: .accepted, versions: 1...1))
        }

        @Test func theSessionOfferAndTheRefusals() throws {
            // §4.7 and §18.1.
            let session = Preamble.Offer(versions: 1...1, mode: .session)
            #expect(try frame(session.encoded) == documented("00 08  52 4C 41 59  01 01 02 00"))
            #expect(try frame(session.encoded) == documented("0008524c415901010200"))
            var phone = LinkHandshake(initiating: .session(partnerKey: wearableKey.publicKey), localKey: StaticKeyPair.generate())
            #expect(phone.start() == [.send(session.encoded)])

            let accepted = try answer(to: session, pairable: false, partnerKey: StaticKeyPair.generate().publicKey)
            #expect(try frame(accepted) == documented("0008524c415901000101"))

            let notPaired = try answer(to: session, pairable: true, partnerKey: nil)
            #expect(try frame(notPaired) == documented("00 08  52 4C 41 59  00 03 01 01"))
            let notPairable = try answer(to: .init(versions: 1...1, mode: .pair), pairable: false, partnerKey: nil)
            #expect(try frame(notPairable) == documented("00 08  52 4C 41 59  00 02 01 01"))
            let unsupported = try answer(to: .init(versions: 2...3, mode: .pair), pairable: true, partnerKey: nil)
            #expect(try frame(unsupported) == documented("00 08  52 4C 41 59  00 01 01 01"))
        }

        @Test func aLaterInitiatorAndResponderAgreeOnVersionTwo() throws {
            // §4.7: an initiator speaking 1–3 and a responder speaking 1–2.
            let offer = try Preamble.Offer(decoding: bytes("52 4C 41 59  01 03 02 00"))
            #expect(offer == Preamble.Offer(versions: 1...3, mode: .session))
            #expect(Preamble.negotiate(1...2, 1...3) == 2)
            let answer = try answer(to: offer, pairable: false, partnerKey: StaticKeyPair.generate().publicKey, versions: 1...2)
            #expect(hex(answer) == documented("52 4C 41 59  02 00 01 02"))
        }

        @Test func thePrologueOfThePairingExample() {
            // §4.6, §4.7.
            #expect(hex(Data("Relay link prologue".utf8)) == documented("52 65 6C 61 79 20 6C 69 6E 6B 20 70 72 6F 6C 6F 67 75 65"))
            let prologue = Preamble.prologue(
                offer: .init(versions: 1...1, mode: .pair), answer: .init(version: 1, status: .accepted, versions: 1...1))
            #expect(prologue.count == 35)
            #expect(
                hex(prologue)
                    == documented(
                        """
                        52 65 6C 61 79 20 6C 69 6E 6B 20 70 72 6F 6C 6F 67 75 65
                        52 4C 41 59 01 01 01 00
                        52 4C 41 59 01 00 01 01
                        """))
        }
    }
}

// MARK: - §18: fixed keys, handshakes, envelopes, pairing

/// The keys of §18: each private key is 32 consecutive byte values.
private enum DocumentKeys {
    static func privateKey(from first: UInt8) throws -> Curve25519.KeyAgreement.PrivateKey {
        try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Data(first..<first + 32))
    }

    static var phoneStatic: Curve25519.KeyAgreement.PrivateKey { get throws { try privateKey(from: 0x00) } }
    static var wearableStatic: Curve25519.KeyAgreement.PrivateKey { get throws { try privateKey(from: 0x20) } }
    static var phoneEphemeral: Curve25519.KeyAgreement.PrivateKey { get throws { try privateKey(from: 0x40) } }
    static var wearableEphemeral: Curve25519.KeyAgreement.PrivateKey { get throws { try privateKey(from: 0x60) } }

    static func prologue(_ mode: Preamble.Mode) -> Data {
        Preamble.prologue(
            offer: .init(versions: 1...1, mode: mode), answer: .init(version: 1, status: .accepted, versions: 1...1))
    }
}

/// Both transport sessions of one handshake.
private struct DocumentSessions: ~Copyable {
    var phone: TransportSession
    var wearable: TransportSession
    var handshakeHash: Data
    /// Each handshake message's frame, in hex, in order.
    var frames: [String]

    /// Runs the §18 handshake for `mode` with the fixed keys.
    init(_ mode: Preamble.Mode) throws {
        let pattern: NoiseHandshakePattern = mode == .pair ? .xx : .kk
        let prologue = DocumentKeys.prologue(mode)
        var phone = try HandshakeState(
            pattern: pattern, role: .initiator, prologue: prologue, localStaticKey: try DocumentKeys.phoneStatic,
            localEphemeralKey: try DocumentKeys.phoneEphemeral,
            remoteStaticKey: mode == .session ? try DocumentKeys.wearableStatic.publicKey : nil)
        var wearable = try HandshakeState(
            pattern: pattern, role: .responder, prologue: prologue, localStaticKey: try DocumentKeys.wearableStatic,
            localEphemeralKey: try DocumentKeys.wearableEphemeral,
            remoteStaticKey: mode == .session ? try DocumentKeys.phoneStatic.publicKey : nil)
        var frames: [String] = []
        while !phone.isComplete || !wearable.isComplete {
            if phone.status == .writeMessage {
                let message = try phone.writeMessage()
                #expect(try wearable.readMessage(message).isEmpty)
                frames.append(try frame(message))
            } else {
                let message = try wearable.writeMessage()
                #expect(try phone.readMessage(message).isEmpty)
                frames.append(try frame(message))
            }
        }
        #expect(phone.handshakeHash == wearable.handshakeHash)
        #expect(phone.remoteStaticKey?.rawRepresentation == (try DocumentKeys.wearableStatic.publicKey.rawRepresentation))
        #expect(wearable.remoteStaticKey?.rawRepresentation == (try DocumentKeys.phoneStatic.publicKey.rawRepresentation))
        let hash = phone.handshakeHash
        let phoneSession = try phone.finish()
        let wearableSession = try wearable.finish()
        self.init(phone: phoneSession, wearable: wearableSession, handshakeHash: hash, frames: frames)
    }

    private init(phone: consuming TransportSession, wearable: consuming TransportSession, handshakeHash: Data, frames: [String]) {
        self.phone = phone
        self.wearable = wearable
        self.handshakeHash = handshakeHash
        self.frames = frames
    }
}

/// ChaCha20-Poly1305 as §6 defines a transport message: empty associated data, the
/// nonce four zero bytes and the counter in little-endian.
private func transportMessage(key: String, counter: UInt64, plaintext: Data) throws -> Data {
    let nonce = Data(count: 4) + withUnsafeBytes(of: counter.littleEndian) { Data($0) }
    let box = try ChaChaPoly.seal(
        plaintext, using: SymmetricKey(data: bytes(key)), nonce: try ChaChaPoly.Nonce(data: nonce), authenticating: Data())
    return box.ciphertext + box.tag
}

extension ProtocolDocumentVectorTests {
    @Suite struct HandshakeDocumentVectors {
        @Test func theFixedKeys() throws {
            #expect(hex(try DocumentKeys.phoneStatic.publicKey.rawRepresentation) == "8f40c5adb68f25624ae5b214ea767a6ec94d829d3d7b5e1ad1ba6f3e2138285f")
            #expect(hex(try DocumentKeys.wearableStatic.publicKey.rawRepresentation) == "358072d6365880d1aeea329adf9121383851ed21a28e3b75e965d0d2cd166254")
            #expect(hex(try DocumentKeys.phoneEphemeral.publicKey.rawRepresentation) == "79a631eede1bf9c98f12032cdeadd0e7a079398fc786b88cc846ec89af85a51a")
            #expect(hex(try DocumentKeys.wearableEphemeral.publicKey.rawRepresentation) == "675dd574ed7789310b3d2e7681f3790b466c773b1521fecf36577958371ea52f")
        }

        @Test func theProtocolNamesAreThirtyTwoBytes() {
            // §5: the initial h is the name itself.
            #expect(NoiseProtocolName(pattern: .xx).description == "Noise_XX_25519_ChaChaPoly_SHA256")
            #expect(NoiseProtocolName(pattern: .kk).description == "Noise_KK_25519_ChaChaPoly_SHA256")
            #expect(Data("Noise_XX_25519_ChaChaPoly_SHA256".utf8).count == 32)
            #expect(Data("Noise_KK_25519_ChaChaPoly_SHA256".utf8).count == 32)
        }

        @Test func sessionModeKK() throws {
            // §18.1.
            #expect(
                hex(DocumentKeys.prologue(.session))
                    == documented("52656c6179206c696e6b2070726f6c6f677565 524c415901010200 524c415901000101"))
            var sessions = try DocumentSessions(.session)
            #expect(
                sessions.frames == [
                    documented(
                        """
                        0030 79a631eede1bf9c98f12032cdeadd0e7a079398fc786b88cc846ec89af85a51a
                             719bc69267e1b622dbb37a0392466c6c
                        """),
                    documented(
                        """
                        0030 675dd574ed7789310b3d2e7681f3790b466c773b1521fecf36577958371ea52f
                             db6fdb61bd4442a5f8283f475fddff20
                        """),
                ])
            #expect(hex(sessions.handshakeHash) == "749ae9bafefe16056c71501643da0b637bccd926f4fd79a4a7a8754417fab0a4")
            try checkSplit(
                &sessions, k1: "da5367fc209caac1f12982fc9e5e47d082fd68a1b6811ee10932b045dfea4362",
                k2: "1a07dae2df2e030d7cddf9a5f16bf8dc17c12716678841770da0ac621449555a")
        }

        @Test func pairModeXX() throws {
            // §18.2.
            var sessions = try DocumentSessions(.pair)
            #expect(
                sessions.frames == [
                    documented("0020 79a631eede1bf9c98f12032cdeadd0e7a079398fc786b88cc846ec89af85a51a"),
                    documented(
                        """
                        0060 675dd574ed7789310b3d2e7681f3790b466c773b1521fecf36577958371ea52f
                             f8fbbd167814c44b0bb328d5e48aaa31dfd99f21b507a9124257638ff45516cc
                             a52fb857cf98a2b2d44d6f62798ab84dbc3ec6f1e30c17cdd0f4cbe0121c0af0
                        """),
                    documented(
                        """
                        0040 0e9eb889e33411638c7b00a161b3ad9460a27b9c7abb509b53cb745363f938a4
                             9fcc32aa3fea6d1a2faddb2b9942b58cbb3b1dbaee38dafaed3b79e5aebb403d
                        """),
                ])
            #expect(hex(sessions.handshakeHash) == "229c3ff940860e8c92485f765f0f2224f08f88e668201f5cdb669f30cb749fea")
            try checkSplit(
                &sessions, k1: "5ee5c66ae8a9caae4e4fcac0e24f13ae26823b0a317eedd9a5bc1b29f4bd5bcc",
                k2: "d689f3c91878a9cda01c5f591aca4f43778926c3d630b3cc6248ee6396ead635")
        }

        @Test func messageSizes() throws {
            // §5: XX 32, 96, 64 bytes; KK 48, 48.
            let xx = try DocumentSessions(.pair).frames.map { (bytes($0).count - 2) }
            let kk = try DocumentSessions(.session).frames.map { (bytes($0).count - 2) }
            #expect(xx == [32, 96, 64])
            #expect(kk == [48, 48])
        }

        /// k1 is what the phone sends with, k2 what the wearable sends with (§6): three
        /// messages each way under the session must equal ChaCha20-Poly1305 under the
        /// documented keys with nonces 0, 1, 2.
        private func checkSplit(_ sessions: inout DocumentSessions, k1: String, k2: String) throws {
            for counter in UInt64(0)..<3 {
                let plaintext = Data("message \(counter)".utf8)
                let fromPhone = try sessions.phone.encrypt(plaintext)
                #expect(hex(fromPhone) == hex(try transportMessage(key: k1, counter: counter, plaintext: plaintext)))
                #expect(try sessions.wearable.decrypt(fromPhone) == plaintext)
                let fromWearable = try sessions.wearable.encrypt(plaintext)
                #expect(hex(fromWearable) == hex(try transportMessage(key: k2, counter: counter, plaintext: plaintext)))
                #expect(try sessions.phone.decrypt(fromWearable) == plaintext)
            }
        }
    }
}

extension ProtocolDocumentVectorTests {
    @Suite struct EnvelopeDocumentVectors {
        static let k1 = "da5367fc209caac1f12982fc9e5e47d082fd68a1b6811ee10932b045dfea4362"
        static let k2 = "1a07dae2df2e030d7cddf9a5f16bf8dc17c12716678841770da0ac621449555a"

        static let phoneHello = Relay_V1_Hello.with {
            $0.role = .phone
            $0.agentVersion = "0.1.0"
            $0.deviceName = "pi-phone"
        }

        static let wearableHello = Relay_V1_Hello.with {
            $0.role = .wearable
            $0.agentVersion = "0.1.0"
            $0.deviceName = "pi-watch"
            $0.capabilities = .with {
                $0.screenWidth = 240
                $0.screenHeight = 240
                $0.colorDepth = 16
                $0.maxTitleBytes = 256
                $0.maxBodyBytes = 1024
                $0.fonts = ["DejaVu Sans"]
                $0.features = ["schedule"]
            }
        }

        static let upsert = Relay_V1_Envelope.OneOf_Body.change(.with {
            $0.upsert = .with {
                $0.key = 4321
                $0.revision = 1
                $0.appKey = 12
                $0.content = .with {
                    $0.title = "Anna"
                    $0.body = "Lunch at 1?"
                    $0.threadKey = 37
                }
                $0.mayAlert = true
                $0.deliveredAt = 1_800_000_000
            }
        })

        // The document's plaintexts and frames, §18.1.
        static let phoneHelloPlaintext = "1a1b 0801 1205302e312e30 1a0870692d70686f6e65 280c 3007 3809 4029"
        static let phoneHelloFrame = """
            002d25d8f5805343fe7b68d23c7a5265fcbaeae1c4a82f17eeb479a29d6fc429e324e699c7167b6a8bb4
            db6cf3421b
            """
        static let wearableHelloPlaintext = """
            1a4208021205302e312e301a0870692d7761746368222508f00110f0011810208002288008
            320b44656a6156752053616e7342087363686564756c65282830093807400c
            """
        static let wearableHelloFrame = """
            005476add5c1acf2112bcd8e07f3b2b3ff1225f353666e9b0bb4c24991d8815287c702b751460714cd32
            f1c82d3012839064f3c8ba7bdc1cf3812c89d390cc3480c7addc6c9ba0356ceaf55a1c418318cb6a2799
            a12d
            """
        static let entryPlaintext = """
            0829 100c 2228 0a26 08e121 1001 180c 2215 0a04416e6e61 1a0b4c756e636820617420313f
            4025 2801 3080a4a7da06
            """
        static let entryFrame = """
            003ef1f800be7dcaa0055b8d266167050a7dc2a2220fc2811a131010a0c031bc5c621f2067785524
            cf3d997750abb029c46379dcd9a889a49bae8cf82ba9749a
            """
        static let acknowledgementPlaintext = "1029"
        static let acknowledgementFrame = "0012c2227abf3f891a188f03b0939843c9b043d5"
        static let categoryUpsertPlaintext = """
            082a 100c 2231 1a2f 080c 122b 0803 1225 0a057265706c79 12055265706c79
            2215 0a0453656e64 1a024f4b 1a094f6e206d7920776179 2801
            """
        static let categoryUpsertFrame = """
            00479dab3d826d30fa6df0bc3781889c9334652c5e6f6f0940488bf7f12e8e36dd408419daf8d79615
            dd36093f34a29166cfdf857fa45de0d305b674d006ba007ba985bee63053d344
            """
        static let categoryRemovePlaintext = "082b 100c 2204 5202 0803"
        static let categoryRemoveFrame = "001a8aca0073ae46321a038a4b0c4031bdf98a4e4b6587c4f22c99e0"
        static let secondAcknowledgementPlaintext = "102b"
        static let secondAcknowledgementFrame = "00120e9c9ec235595928a0ffc2eafb5a9c38f620"

        /// The category of §18.1 as the app declares it; the phone assigned it key 3.
        static var chatCategory: NotificationCategory {
            NotificationCategory(
                identifier: "chat",
                actions: [
                    NotificationAction(
                        identifier: "reply", title: "Reply",
                        textInput: TextInputOptions(buttonTitle: "Send", suggestedReplies: ["OK", "On my way"]))
                ],
                options: [.customDismissAction])
        }

        static let categoryUpsert = Relay_V1_Envelope.OneOf_Body.change(.with {
            $0.categoryUpsert = .with { $0.appKey = 12; $0.category = Relay_V1_Category(chatCategory, key: 3) }
        })
        static let categoryRemove = Relay_V1_Envelope.OneOf_Body.change(.with { $0.categoryRemove = .with { $0.key = 3 } })

        @Test func thePlaintexts() throws {
            let phoneHello = Relay_V1_Envelope.with { $0.hello = Self.phoneHello; $0.hello.receivedThrough = 12; $0.hello.logEpoch = 7; $0.hello.receivedEpoch = 9; $0.hello.logHead = 41 }
            let wearableHello = Relay_V1_Envelope.with { $0.hello = Self.wearableHello; $0.hello.receivedThrough = 40; $0.hello.logEpoch = 9; $0.hello.receivedEpoch = 7; $0.hello.logHead = 12 }
            let entry = Relay_V1_Envelope.with { $0.seq = 41; $0.ack = 12; $0.body = Self.upsert }
            let acknowledgement = Relay_V1_Envelope.with { $0.ack = 41 }
            try Self.chatCategory.validate(as: "category")
            let categoryUpsert = Relay_V1_Envelope.with { $0.seq = 42; $0.ack = 12; $0.body = Self.categoryUpsert }
            let categoryRemove = Relay_V1_Envelope.with { $0.seq = 43; $0.ack = 12; $0.body = Self.categoryRemove }
            let secondAcknowledgement = Relay_V1_Envelope.with { $0.ack = 43 }
            let plaintexts: [Data] = try [
                phoneHello, wearableHello, entry, acknowledgement, categoryUpsert, categoryRemove, secondAcknowledgement,
            ].map { try $0.serializedBytes() }
            #expect(
                plaintexts.map(hex) == [
                    documented(Self.phoneHelloPlaintext), documented(Self.wearableHelloPlaintext), documented(Self.entryPlaintext),
                    documented(Self.acknowledgementPlaintext), documented(Self.categoryUpsertPlaintext),
                    documented(Self.categoryRemovePlaintext), documented(Self.secondAcknowledgementPlaintext),
                ])
            #expect(plaintexts.map(\.count) == [29, 68, 46, 2, 55, 10, 2])
            // §8.6: `ack = 41` encodes as 10 29 and costs 20 bytes on the link.
            #expect(try frame(try transportMessage(key: Self.k2, counter: 1, plaintext: plaintexts[3])).count / 2 == 20)
            // Every plaintext decodes back to what it was made from.
            #expect(try Relay_V1_Envelope(serializedBytes: plaintexts[2]) == entry)
        }

        @Test func theFramesUnderTheDocumentedKeys() throws {
            #expect(try frame(transportMessage(key: Self.k1, counter: 0, plaintext: bytes(Self.phoneHelloPlaintext))) == documented(Self.phoneHelloFrame))
            #expect(try frame(transportMessage(key: Self.k2, counter: 0, plaintext: bytes(Self.wearableHelloPlaintext))) == documented(Self.wearableHelloFrame))
            #expect(try frame(transportMessage(key: Self.k1, counter: 1, plaintext: bytes(Self.entryPlaintext))) == documented(Self.entryFrame))
            #expect(try frame(transportMessage(key: Self.k2, counter: 1, plaintext: bytes(Self.acknowledgementPlaintext))) == documented(Self.acknowledgementFrame))
            #expect(try frame(transportMessage(key: Self.k1, counter: 2, plaintext: bytes(Self.categoryUpsertPlaintext))) == documented(Self.categoryUpsertFrame))
            #expect(try frame(transportMessage(key: Self.k1, counter: 3, plaintext: bytes(Self.categoryRemovePlaintext))) == documented(Self.categoryRemoveFrame))
            #expect(try frame(transportMessage(key: Self.k2, counter: 2, plaintext: bytes(Self.secondAcknowledgementPlaintext))) == documented(Self.secondAcknowledgementFrame))
        }

        @Test func theCatchUpTranscript() throws {
            // §18.4: entries that waited while the devices were apart, resent after the
            // Hellos with `may_alert` as posted; the wearable reports that they did not alert.
            func upsert(_ key: UInt64, _ body: String, at time: Int64) -> Relay_V1_Envelope.OneOf_Body {
                .change(.with {
                    $0.upsert = .with {
                        $0.key = key
                        $0.revision = 1
                        $0.appKey = 12
                        $0.content = .with {
                            $0.title = "Anna"
                            $0.body = body
                            $0.threadKey = 37
                        }
                        $0.mayAlert = true
                        $0.deliveredAt = time
                    }
                })
            }
            func waited(_ key: UInt64) -> Relay_V1_Envelope.OneOf_Body {
                .event(.with {
                    $0.at = 1_800_003_600
                    $0.alerted = .with {
                        $0.notificationKey = key
                        $0.revision = 1
                        $0.reason = "it waited while the devices were apart"
                    }
                })
            }
            var sessions = try DocumentSessions(.session)
            let fromPhone: [(Relay_V1_Envelope, String)] = [
                (.with { $0.hello = Self.phoneHello; $0.hello.receivedThrough = 12; $0.hello.logEpoch = 7; $0.hello.receivedEpoch = 9; $0.hello.logHead = 45 },
                 "002d25d8f5805343fe7b68d23c7a5265fcbaeae1c4a82f17eeb479a29d6fc0276722d5ab905eedcae80365752ef40b"),
                (.with { $0.seq = 44; $0.ack = 12; $0.body = upsert(4322, "Running late", at: 1_800_000_600) },
                 "003ff1fd00be7dcba0045b8e266167050a7dc1a2220fc2811a13170ea0c03cbd12644b6c37337041c214a8c72ca4cdf5dc5e22d53224a7a2aac45f6d9d186fe71f"),
                (.with { $0.seq = 45; $0.ack = 12; $0.body = upsert(4323, "Here now", at: 1_800_000_900) },
                 "003b9dac3d826d24ea61f05304ba81878d337d23284b710b584086edf12c876f913af95dacb5b8c28b74de9823feca2cf82f543562c8adfea047285efe"),
                (.with { $0.ack = 14 }, "001292ef5d339bdf82d102cf09bfcb1810c33cec"),
            ]
            let fromWearable: [(Relay_V1_Envelope, String)] = [
                (.with { $0.hello = Self.wearableHello; $0.hello.receivedThrough = 43; $0.hello.logEpoch = 9; $0.hello.receivedEpoch = 7; $0.hello.logHead = 12 },
                 "005476add5c1acf2112bcd8e07f3b2b3ff1225f353666e9b0bb4c24991d8815287c702b751460714cd32f1c82d3012839064f3c8ba7bdc1cf3812c89d390cc3780c7addc6c9be8dd9ebd64bb89862543e12aa4e6ed73"),
                (.with { $0.seq = 13; $0.ack = 45; $0.body = waited(4322) },
                 "004bda06ae066f1849f31ddf41525784a3d0fdbd6c017ff77f51aecf97ec0b09553b016b1552b4c11ddd369b0edd6439c81a4e9cc16665ceb2c5a846fa7750130f17e179bf8be55901d1825877"),
                (.with { $0.seq = 14; $0.ack = 45; $0.body = waited(4323) },
                 "004b16b9534da83b31770d7a3ff5eb0c53f159f0165c59ccfa26f1487bd706cc9ffa233664d78a96d3464d191b29538950181fea32b7abd0dc4e3a812e66d27925f81f2232600592c5edfba752"),
            ]
            for (envelope, expected) in fromPhone {
                #expect(try frame(try sessions.phone.encrypt(try envelope.serializedData())) == expected)
            }
            for (envelope, expected) in fromWearable {
                #expect(try frame(try sessions.wearable.encrypt(try envelope.serializedData())) == expected)
            }
        }

        /// The four envelopes as two `LinkSession`s produce them over the §18.1 handshake:
        /// Hellos with `ack` 0, the phone resending entry 41, the wearable acknowledging it.
        @Test func theSessionsProduceTheDocumentedFrames() throws {
            let start = ContinuousClock.now
            let sessions = try DocumentSessions(.session)
            let hash = sessions.handshakeHash
            let phoneLink = EstablishedLink(
                session: sessions.phone, version: 1, mode: .session,
                remoteStaticKey: try DocumentKeys.wearableStatic.publicKey.rawRepresentation, handshakeHash: hash)
            let wearableLink = EstablishedLink(
                session: sessions.wearable, version: 1, mode: .session,
                remoteStaticKey: try DocumentKeys.phoneStatic.publicKey.rawRepresentation, handshakeHash: hash)
            // The phone's log (epoch 7) was acknowledged through 40; entry 41 is persisted and
            // unacknowledged. It has applied the wearable's log (epoch 9) through 12.
            var phone = LinkSession(
                link: phoneLink, hello: Self.phoneHello,
                logs: .init(
                    outbound: OutboundLog(pending: [.init(seq: 41, body: Self.upsert)], acknowledgedThrough: 40), ownEpoch: 7,
                    inbound: InboundCursor(appliedThrough: 12), peerEpoch: 9),
                liveness: LivenessMonitor(now: start))
            var wearable = LinkSession(
                link: wearableLink, hello: Self.wearableHello,
                logs: .init(
                    outbound: OutboundLog(acknowledgedThrough: 12), ownEpoch: 9, inbound: InboundCursor(appliedThrough: 40),
                    peerEpoch: 7),
                liveness: LivenessMonitor(now: start))

            let phoneHello = try sent(phone.start())
            #expect(phoneHello.map(hex) == [documented(Self.phoneHelloFrame)])
            let wearableHello = try sent(wearable.start())
            #expect(wearableHello.map(hex) == [documented(Self.wearableHelloFrame)])

            let entry = try sent(phone.receive(payload(wearableHello[0]), at: start))
            #expect(entry.map(hex) == [documented(Self.entryFrame)])

            #expect(try sent(wearable.receive(payload(phoneHello[0]), at: start)).isEmpty)
            let delivered = wearable.receive(payload(entry[0]), at: start)
            var deliveredSeqs: [UInt64] = []
            for case .deliver(let seq, let body) in delivered {
                deliveredSeqs.append(seq)
                #expect(body == Self.upsert)
            }
            #expect(deliveredSeqs == [41])
            wearable.applied(41)
            let acknowledgement = try sent(wearable.flushAcknowledgement())
            #expect(acknowledgement.map(hex) == [documented(Self.acknowledgementFrame)])
            var acknowledged: [UInt64] = []
            for case .acknowledged(let through) in phone.receive(payload(acknowledgement[0]), at: start) { acknowledged.append(through) }
            #expect(acknowledged == [41])

            // The app's category is declared, then withdrawn: one change each.
            #expect(phone.nextOutboundSeq == 42)
            let upsert = try sent(phone.enqueue(Self.categoryUpsert))
            #expect(upsert.map(hex) == [documented(Self.categoryUpsertFrame)])
            let remove = try sent(phone.enqueue(Self.categoryRemove))
            #expect(remove.map(hex) == [documented(Self.categoryRemoveFrame)])
            for (seq, frame) in zip(UInt64(42)...43, upsert + remove) {
                var seqs: [UInt64] = []
                for case .deliver(let delivered, _) in wearable.receive(payload(frame), at: start) { seqs.append(delivered) }
                #expect(seqs == [seq])
                wearable.applied(seq)
            }
            let secondAcknowledgement = try sent(wearable.flushAcknowledgement())
            #expect(secondAcknowledgement.map(hex) == [documented(Self.secondAcknowledgementFrame)])
        }

        @Test func theExampleUpsertCostsSixtyFourBytes() throws {
            // §15: "Anna" / "Lunch at 1?", 15 text bytes, is a 64-byte frame, as LinkCost counts it.
            let request = NotificationRequest(
                identifier: "lunch", content: NotificationContent(title: "Anna", body: "Lunch at 1?", threadIdentifier: "anna"))
            #expect(LinkCost.textBytes(request.content) == 15)
            #expect(try LinkCost.upsertBytesOnLink(request, key: 4321, revision: 1, seq: 41, ack: 12) == 64)
            #expect(bytes(Self.entryFrame).count == 64)
        }

        /// The frames (header included) among `actions`; fails on a failure.
        private func sent(_ actions: [LinkSession.Action]) throws -> [Data] {
            var frames: [Data] = []
            for action in actions {
                switch action {
                case .send(let payload): frames.append(try FrameFormat.encode(payload))
                case .failed(let failure): Issue.record("the session failed: \(failure)")
                default: break
                }
            }
            return frames
        }

        private func payload(_ frame: Data) -> Data { frame.dropFirst(FrameFormat.headerLength) }
    }
}

extension ProtocolDocumentVectorTests {
    @Suite struct PairingDocumentVectors {
        @Test func pairingOverTheXXHash() throws {
            // §18.2.
            let hash = try DocumentSessions(.pair).handshakeHash
            let phoneNonce = Data(repeating: 0x11, count: 32)
            let wearableNonce = Data(repeating: 0x22, count: 32)
            #expect(Data("Relay pairing commitment".utf8).count == 24 && Data("Relay pairing code".utf8).count == 18)
        #expect(hex(PairingExchange.commit(hash, wearableNonce)) == "9711d516d8ea5cf9f2beeecbc2e962cca85cd5126c73225ef8ea14d1d84ae24a")
            let digest = Data(SHA256.hash(data: Data("Relay pairing code".utf8) + hash + phoneNonce + wearableNonce))
            #expect(hex(digest) == "4914c6c665981362c412b3ce77ab7e14a13b3c3b90f1d9c6563d6d125297fdf2")
            let first8 = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(hex(digest.prefix(8)) == "4914c6c665981362")
            #expect(first8 == 5_266_052_419_713_241_954)
            #expect(PairingExchange.code(hash, initiatorNonce: phoneNonce, responderNonce: wearableNonce) == "241954")
            #expect(try exchange(hash: hash, phoneNonce: phoneNonce, wearableNonce: wearableNonce) == ("9711d516d8ea5cf9f2beeecbc2e962cca85cd5126c73225ef8ea14d1d84ae24a", "241954"))
        }

        @Test func thePairingTranscript() throws {
            // §18.3: the envelopes of a whole pairing over the §18.2 session, each side's
            // pairing messages from `PairingExchange` with the fixed nonces.
            var sessions = try DocumentSessions(.pair)
            var phone = PairingExchange(side: .initiator, handshakeHash: sessions.handshakeHash, nonce: Data(repeating: 0x11, count: 32))
            var wearable = PairingExchange(side: .responder, handshakeHash: sessions.handshakeHash, nonce: Data(repeating: 0x22, count: 32))
            func sent(_ steps: [PairingExchange.Step]) -> [Relay_V1_Pairing] {
                steps.compactMap { if case .send(let message) = $0 { message } else { nil } }
            }
            let commitment = try #require(sent(wearable.start()).first)
            let initiatorNonce = try #require(sent(phone.receive(commitment)).first)
            let responderNonce = try #require(sent(wearable.receive(initiatorNonce)).first)
            #expect(sent(phone.receive(responderNonce)).isEmpty)
            let phoneConfirmed = try #require(sent(phone.decide(true)).first)
            let wearableConfirmed = try #require(sent(wearable.decide(true)).first)
            #expect(phone.receive(wearableConfirmed).contains(.paired))
            #expect(wearable.receive(phoneConfirmed).contains(.paired))

            func hello(_ role: Relay_V1_Role, _ name: String) -> Relay_V1_Envelope.OneOf_Body {
                .hello(.with {
                    $0.role = role
                    $0.agentVersion = "0.1.0"
                    $0.deviceName = name
                })
            }
            let finished = Relay_V1_Envelope.OneOf_Body.error(.with { $0.message = "pairing finished" })
            let fromPhone: [(Relay_V1_Envelope.OneOf_Body, String, String)] = [
                (hello(.phone, "pi-phone"), "1a1308011205302e312e301a0870692d70686f6e65",
                 "0025f58a75b05de1d6368c2592aa84f6303888ff9ae6e2472dc715a694728e3862688af1e553f3"),
                (.pairing(initiatorNonce), "522212201111111111111111111111111111111111111111111111111111111111111111",
                 "00344f4378b38248b77759759cd5fcc973f7590a247bbeccd708428d56e23203f1fd0a6de62ceb84d17a01a2084190bb6bb6b8badf3c"),
                (.pairing(phoneConfirmed), "52022001", "00148acb9eae44dccd967356b8799b36ec2493052626"),
                (finished, "4a12121070616972696e672066696e6973686564",
                 "0024cb428ebb0a55681b4edc33eb764cf4125b8dc70246bd1fddc06b18e42dc3e00ec538b949"),
            ]
            let fromWearable: [(Relay_V1_Envelope.OneOf_Body, String, String)] = [
                (hello(.wearable, "pi-watch"), "1a1308021205302e312e301a0870692d7761746368",
                 "002586b1599d0d9c7eedaabcf707ae8cfbfa3324ea306da50d2f2315e471a23ef79de6cfcd6dd1"),
                (.pairing(commitment), "52220a209711d516d8ea5cf9f2beeecbc2e962cca85cd5126c73225ef8ea14d1d84ae24a",
                 "00347861e46a3db0f8f6fa4fb21f633bbc7eb3b7466b83fde30372f1275504c2d15810f88cbc16b63b8e5d1396bc63239a8b3a4c2bc3"),
                (.pairing(responderNonce), "52221a202222222222222222222222222222222222222222222222222222222222222222",
                 "003437082678f8c99231b87fa59d5d67d1225bd8df79ffe4772b5f5ca49b9606a450251af1a154e2a42d3d7ffa82dc3dbdf265c5e68f"),
                (.pairing(wearableConfirmed), "52022001", "0014799e078b954cf4f2e9cbad77616938537eb6503d"),
            ]
            for (body, plaintext, expected) in fromPhone {
                let envelope = Relay_V1_Envelope.with { $0.body = body }
                #expect(hex(try envelope.serializedData()) == plaintext)
                #expect(try frame(try sessions.phone.encrypt(try envelope.serializedData())) == expected)
            }
            for (body, plaintext, expected) in fromWearable {
                let envelope = Relay_V1_Envelope.with { $0.body = body }
                #expect(hex(try envelope.serializedData()) == plaintext)
                #expect(try frame(try sessions.wearable.encrypt(try envelope.serializedData())) == expected)
            }
        }

        @Test func theInputsOfPairingTests() throws {
            // §18.2, last paragraph.
            let hash = Data(repeating: 0x07, count: 32)
            let phoneNonce = Data(repeating: 0x01, count: 32)
            let wearableNonce = Data(repeating: 0x02, count: 32)
            #expect(hex(PairingExchange.commit(hash, wearableNonce)) == "4f4579601d7391fc3410eb8bfea2543f350909c9205d63fa5d1adb850c4784db")
            #expect(PairingExchange.code(hash, initiatorNonce: phoneNonce, responderNonce: wearableNonce) == "625031")
            #expect(try exchange(hash: hash, phoneNonce: phoneNonce, wearableNonce: wearableNonce) == ("4f4579601d7391fc3410eb8bfea2543f350909c9205d63fa5d1adb850c4784db", "625031"))
        }

        /// Runs the public exchange (§7.2) with fixed nonces: the commitment the wearable
        /// sends and the code both sides show.
        private func exchange(hash: Data, phoneNonce: Data, wearableNonce: Data) throws -> (String, String) {
            var phone = PairingExchange(side: .initiator, handshakeHash: hash, nonce: phoneNonce)
            var wearable = PairingExchange(side: .responder, handshakeHash: hash, nonce: wearableNonce)
            guard case .send(let commitment)? = wearable.start().first, case .commitment(let committed)? = commitment.step else {
                Issue.record("the wearable did not commit first")
                return ("", "")
            }
            guard case .send(let initiatorNonce)? = phone.receive(commitment).first else {
                Issue.record("the phone did not send its nonce")
                return ("", "")
            }
            #expect(initiatorNonce.initiatorNonce == phoneNonce)
            let reveal = wearable.receive(initiatorNonce)
            guard case .send(let responderNonce)? = reveal.first else {
                Issue.record("the wearable did not reveal its nonce")
                return ("", "")
            }
            #expect(responderNonce.responderNonce == wearableNonce)
            let shown = phone.receive(responderNonce)
            #expect(reveal.contains(.showCode(wearable.shownCode ?? "")))
            #expect(shown == [.showCode(phone.shownCode ?? "")])
            #expect(phone.shownCode == wearable.shownCode)
            return (hex(committed), try #require(phone.shownCode))
        }
    }
}


// MARK: - §15: the largest changes

extension ProtocolDocumentVectorTests {
    /// §15's frame sizes for a notification and a category at every limit of the model,
    /// built as `FrameFitTests` builds them (every number at its largest, two-byte letters).
    @Suite struct LinkBudgetDocumentVectors {
        private static func text(_ bytes: Int) -> String { String(repeating: "ж", count: bytes / 2) }

        /// §15's overhead table: with `seq` 1234, `ack` 567, key 4321 and the other values
        /// it lists, a notification costs its text bytes plus 51 (one short text field) to 61
        /// (three text fields of 128 bytes or more, so every length takes two bytes).
        @Test func theOverheadRange() throws {
            func overhead(_ content: NotificationContent) throws -> Int {
                let request = NotificationRequest(identifier: "n", content: content)
                return try LinkCost.upsertBytesOnLink(request, key: 4321, revision: 1, seq: 1234, ack: 567)
                    - LinkCost.textBytes(content)
            }
            #expect(try overhead(NotificationContent(title: "Anna", categoryIdentifier: "chat", threadIdentifier: "anna")) == 51)
            let long = String(repeating: "x", count: 200)
            #expect(
                try overhead(NotificationContent(title: long, subtitle: long, body: long, categoryIdentifier: "chat", threadIdentifier: "anna"))
                    == 61)
        }

        /// Envelope plus Noise tag: the frame's payload.
        private func framePayloadBytes(_ body: Relay_V1_Envelope.OneOf_Body) throws -> Int {
            let envelope = Relay_V1_Envelope.with { $0.seq = .max; $0.ack = .max; $0.body = body }
            let payload: Data = try envelope.serializedBytes()
            return payload.count + LinkCost.noiseTagBytes
        }

        @Test func theLargestNotification() throws {
            var content = NotificationContent(
                title: Self.text(ModelLimits.titleBytes), subtitle: Self.text(ModelLimits.titleBytes),
                body: Self.text(ModelLimits.bodyBytes), badge: Int(Int32.max), sound: .named(Self.text(ModelLimits.identifierBytes)),
                interruptionLevel: .critical, summaryArgument: Self.text(ModelLimits.titleBytes),
                summaryArgumentCount: Int(Int32.max))
            content.userInfo[NotificationContent.freedesktopCategoryKey] = .string(Self.text(64))
            try content.validate(as: "content")
            let attachments = (0..<ModelLimits.attachments).map { index in
                Relay_V1_AttachmentRef.with {
                    $0.identifier = String(index) + Self.text(ModelLimits.identifierBytes - 2)
                    $0.type = "image/png"
                    $0.sha256 = Data(count: 32)
                    $0.size = .max
                }
            }
            let upsert = Relay_V1_Envelope.OneOf_Body.change(.with {
                $0.upsert = .with {
                    $0.key = .max
                    $0.revision = .max
                    $0.appKey = .max
                    $0.noAlertReason = Self.text(256)
                    $0.deliveredAt = .max
                    $0.content = Relay_V1_Content(content, categoryKey: .max, threadKey: .max, attachments: attachments)
                }
            })
            let bytes = try framePayloadBytes(upsert)
            #expect(bytes == 8693, "\(bytes)")
        }

        @Test func theLargestCategory() throws {
            let longest = PluralizedText(
                forms: Dictionary(uniqueKeysWithValues: PluralCategory.allCases.map { ($0, Self.text(ModelLimits.placeholderBytes)) }))
            #expect(PluralCategory.allCases.count == 6)
            let actions = (0..<ModelLimits.actionsPerCategory).map { index in
                NotificationAction(
                    identifier: String(index) + Self.text(ModelLimits.actionIdentifierBytes - 2),
                    title: Self.text(ModelLimits.actionTextBytes), options: [.authenticationRequired, .destructive, .foreground],
                    textInput: TextInputOptions(
                        buttonTitle: Self.text(ModelLimits.actionTextBytes), placeholder: Self.text(ModelLimits.actionTextBytes),
                        suggestedReplies: Array(repeating: Self.text(ModelLimits.actionTextBytes), count: ModelLimits.suggestedReplies)))
            }
            let category = NotificationCategory(
                identifier: "c", actions: actions, hiddenPreviewsBodyPlaceholder: longest, categorySummaryFormat: longest,
                options: [.customDismissAction, .hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle])
            try category.validate(as: "category")
            #expect(ModelLimits.actionsPerCategory == 10 && ModelLimits.actionIdentifierBytes == 64)
            #expect(ModelLimits.suggestedReplies == 6 && ModelLimits.actionTextBytes == 128)
            let upsert = Relay_V1_Envelope.OneOf_Body.change(.with {
                $0.categoryUpsert = .with { $0.appKey = .max; $0.category = Relay_V1_Category(category, key: .max) }
            })
            let bytes = try framePayloadBytes(upsert)
            #expect(bytes == 15799)
            #expect(bytes <= FrameFormat.defaultMaximumLength)
        }
    }
}
