public import Foundation

/// The cleartext frames that open every connection, before the Noise handshake: the
/// initiator offers a range of protocol versions and says whether it pairs or resumes a
/// session; the responder picks a version or refuses with a reason the initiator can
/// show. Both preambles go into the Noise prologue, so an attacker who alters them makes
/// the handshake fail (no downgrade).
public enum Preamble {
    /// "RLAY": lets a responder tell a Relay peer from a stray client at once.
    public static let magic = Data("RLAY".utf8)
    /// The protocol versions this build speaks.
    public static let supportedVersions: ClosedRange<UInt8> = 1...1
    /// Both preambles are exactly this long.
    public static let length = 8

    /// What the initiator wants.
    public enum Mode: UInt8, Sendable, Hashable {
        /// Pair: `Noise_XX`, both static keys learned and confirmed with a code.
        case pair = 1
        /// Resume a paired session: `Noise_KK` with the stored keys.
        case session = 2
    }

    /// The responder's answer.
    public enum Status: UInt8, Sendable, Hashable {
        /// Go on with the handshake in the chosen version.
        case accepted = 0
        /// No version in common.
        case unsupportedVersion = 1
        /// Pairing was asked for, but the responder is not accepting new partners.
        case notPairable = 2
        /// A session was asked for, but the responder has no partner.
        case notPaired = 3
    }

    /// The initiator's preamble.
    public struct Offer: Sendable, Hashable {
        /// Versions the initiator speaks.
        public var versions: ClosedRange<UInt8>
        /// Pair or resume.
        public var mode: Mode

        /// Creates an offer.
        public init(versions: ClosedRange<UInt8> = Preamble.supportedVersions, mode: Mode) {
            self.versions = versions
            self.mode = mode
        }

        /// The eight bytes on the wire: magic, lowest and highest version, mode, zero.
        public var encoded: Data {
            Preamble.magic + Data([versions.lowerBound, versions.upperBound, mode.rawValue, 0])
        }

        /// Parses an offer.
        public init(decoding bytes: Data) throws(PreambleError) {
            let fields = try Preamble.fields(of: bytes)
            guard fields[0] <= fields[1] else { throw .malformed("lowest version above highest") }
            guard let mode = Mode(rawValue: fields[2]) else { throw .malformed("unknown mode \(fields[2])") }
            // Every byte is bound into the Noise prologue; a reserved byte must be zero so
            // that no two encodings mean the same offer.
            guard fields[3] == 0 else { throw .malformed("reserved byte is \(fields[3]), not 0") }
            self.init(versions: fields[0]...fields[1], mode: mode)
        }
    }

    /// The responder's preamble.
    public struct Answer: Sendable, Hashable {
        /// The chosen version; 0 when refused.
        public var version: UInt8
        /// Accepted, or why not.
        public var status: Status
        /// Versions the responder speaks, so a refused initiator can say which side to update.
        public var versions: ClosedRange<UInt8>

        /// Creates an answer.
        public init(version: UInt8, status: Status, versions: ClosedRange<UInt8> = Preamble.supportedVersions) {
            self.version = version
            self.status = status
            self.versions = versions
        }

        /// The eight bytes on the wire: magic, version, status, lowest and highest version.
        public var encoded: Data {
            Preamble.magic + Data([version, status.rawValue, versions.lowerBound, versions.upperBound])
        }

        /// Parses an answer.
        public init(decoding bytes: Data) throws(PreambleError) {
            let fields = try Preamble.fields(of: bytes)
            guard let status = Status(rawValue: fields[1]) else { throw .malformed("unknown status \(fields[1])") }
            guard fields[2] <= fields[3] else { throw .malformed("lowest version above highest") }
            self.init(version: fields[0], status: status, versions: fields[2]...fields[3])
        }
    }

    /// The highest version both ranges contain.
    public static func negotiate(_ local: ClosedRange<UInt8>, _ remote: ClosedRange<UInt8>) -> UInt8? {
        let highest = min(local.upperBound, remote.upperBound)
        return highest >= max(local.lowerBound, remote.lowerBound) ? highest : nil
    }

    /// The Noise prologue binding both preambles to the handshake.
    public static func prologue(offer: Offer, answer: Answer) -> Data {
        Data("Relay link prologue".utf8) + offer.encoded + answer.encoded
    }

    private static func fields(of bytes: Data) throws(PreambleError) -> [UInt8] {
        guard bytes.count == length else { throw .malformed("\(bytes.count) bytes instead of \(length)") }
        guard bytes.prefix(4) == magic else { throw .notRelay }
        return Array(bytes.dropFirst(4))
    }
}

/// Why a preamble was refused.
public enum PreambleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer is not speaking Relay's protocol.
    case notRelay
    /// The preamble is Relay's but broken.
    case malformed(String)

    /// A message for logs.
    public var description: String {
        switch self {
        case .notRelay: "the peer did not start with Relay's preamble; it is not a Relay agent"
        case .malformed(let reason): "malformed preamble: \(reason)"
        }
    }
}
