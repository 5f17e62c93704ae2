/// One step of a Noise message pattern (spec §7.1): send a public key, or mix in a Diffie-Hellman result.
///
/// In the DH tokens the first letter names the initiator's key and the second the responder's,
/// so `es` is always the initiator's ephemeral with the responder's static, whoever processes it.
public enum NoiseToken: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The sender's ephemeral public key, in clear.
    case e
    /// The sender's static public key, encrypted once a key has been mixed in.
    case s
    /// DH of the initiator's ephemeral and the responder's ephemeral key.
    case ee
    /// DH of the initiator's ephemeral and the responder's static key.
    case es
    /// DH of the initiator's static and the responder's ephemeral key.
    case se
    /// DH of the initiator's static and the responder's static key.
    case ss

    /// The token as written in the spec.
    public var description: String { rawValue }

    /// Whether the token mixes a Diffie-Hellman result into the chaining key.
    var isKeyAgreement: Bool {
        switch self {
        case .e, .s: false
        case .ee, .es, .se, .ss: true
        }
    }
}
