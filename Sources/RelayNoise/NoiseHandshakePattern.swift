/// A Noise handshake pattern (spec §7) as data: the keys known in advance and the messages that follow.
///
/// Only the supported patterns can be obtained (see `fundamental` and `named(_:)`), so every value
/// satisfies the spec's validity rules and a `HandshakeState` never meets a token it cannot process.
public struct NoiseHandshakePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern's name as it appears in a protocol name, for example `XX`.
    public let name: String
    /// Tokens for keys the initiator has shared before the handshake (`-> s` before the `...`).
    public let initiatorPreMessage: [NoiseToken]
    /// Tokens for keys the responder has shared before the handshake (`<- s` before the `...`).
    public let responderPreMessage: [NoiseToken]
    /// The handshake messages, in the order they are sent.
    public let messages: [NoiseMessagePattern]

    init(
        name: String,
        initiatorPreMessage: [NoiseToken] = [],
        responderPreMessage: [NoiseToken] = [],
        messages: [NoiseMessagePattern]
    ) {
        self.name = name
        self.initiatorPreMessage = initiatorPreMessage
        self.responderPreMessage = responderPreMessage
        self.messages = messages
    }

    /// The pre-message tokens of the given party.
    public func preMessage(of role: NoiseRole) -> [NoiseToken] {
        switch role {
        case .initiator: initiatorPreMessage
        case .responder: responderPreMessage
        }
    }

    /// Whether the party's static key takes part, either shared in advance or sent during the handshake.
    public func usesStaticKey(of role: NoiseRole) -> Bool {
        preMessage(of: role).contains(.s)
            || messages.contains { $0.sender == role && $0.tokens.contains(.s) }
    }

    /// The pattern in the spec's notation, one message per line.
    public var description: String {
        var lines = ["\(name):"]
        for role in NoiseRole.allCases where !preMessage(of: role).isEmpty {
            let pre = NoiseMessagePattern(sender: role, tokens: preMessage(of: role))
            lines.append("  \(pre)")
        }
        if !initiatorPreMessage.isEmpty || !responderPreMessage.isEmpty {
            lines.append("  ...")
        }
        lines += messages.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
