/// One handshake message: who sends it and the tokens it carries, in order.
public struct NoiseMessagePattern: Sendable, Hashable, CustomStringConvertible {
    /// The party that writes this message.
    public let sender: NoiseRole
    /// The tokens processed, in order, before the payload.
    public let tokens: [NoiseToken]

    /// A message sent by the initiator (`->` in the spec).
    static func initiator(_ tokens: NoiseToken...) -> NoiseMessagePattern {
        NoiseMessagePattern(sender: .initiator, tokens: tokens)
    }

    /// A message sent by the responder (`<-` in the spec).
    static func responder(_ tokens: NoiseToken...) -> NoiseMessagePattern {
        NoiseMessagePattern(sender: .responder, tokens: tokens)
    }

    /// The message in the spec's notation, for example `<- e, ee, s, es`.
    public var description: String {
        let arrow = sender == .initiator ? "->" : "<-"
        return "\(arrow) \(tokens.map(\.rawValue).joined(separator: ", "))"
    }
}
