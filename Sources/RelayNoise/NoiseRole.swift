/// Which side of a Noise handshake a party plays.
public enum NoiseRole: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The party that sends the first handshake message.
    case initiator
    /// The party that receives the first handshake message.
    case responder

    /// The role of the other party.
    public var peer: NoiseRole {
        switch self {
        case .initiator: .responder
        case .responder: .initiator
        }
    }

    /// `initiator` or `responder`.
    public var description: String {
        switch self {
        case .initiator: "initiator"
        case .responder: "responder"
        }
    }
}
