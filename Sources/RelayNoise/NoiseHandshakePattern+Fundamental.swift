// The twelve fundamental interactive patterns, transcribed from Noise spec revision 34, §7.4.
// The first letter says how the initiator's static key reaches the responder, the second how the
// responder's reaches the initiator: N = none, K = known in advance, X = transmitted, I = transmitted immediately.

extension NoiseHandshakePattern {
    /// `NN`: no static keys.
    public static let nn = NoiseHandshakePattern(
        name: "NN",
        messages: [.initiator(.e), .responder(.e, .ee)])

    /// `NK`: the initiator knows the responder's static key in advance.
    public static let nk = NoiseHandshakePattern(
        name: "NK", responderPreMessage: [.s],
        messages: [.initiator(.e, .es), .responder(.e, .ee)])

    /// `NX`: the responder transmits its static key.
    public static let nx = NoiseHandshakePattern(
        name: "NX",
        messages: [.initiator(.e), .responder(.e, .ee, .s, .es)])

    /// `KN`: the responder knows the initiator's static key in advance.
    public static let kn = NoiseHandshakePattern(
        name: "KN", initiatorPreMessage: [.s],
        messages: [.initiator(.e), .responder(.e, .ee, .se)])

    /// `KK`: each party knows the other's static key in advance.
    public static let kk = NoiseHandshakePattern(
        name: "KK", initiatorPreMessage: [.s], responderPreMessage: [.s],
        messages: [.initiator(.e, .es, .ss), .responder(.e, .ee, .se)])

    /// `KX`: the initiator's static key is known; the responder transmits its own.
    public static let kx = NoiseHandshakePattern(
        name: "KX", initiatorPreMessage: [.s],
        messages: [.initiator(.e), .responder(.e, .ee, .se, .s, .es)])

    /// `XN`: the initiator transmits its static key; the responder has none.
    public static let xn = NoiseHandshakePattern(
        name: "XN",
        messages: [.initiator(.e), .responder(.e, .ee), .initiator(.s, .se)])

    /// `XK`: the initiator transmits its static key and knows the responder's in advance.
    public static let xk = NoiseHandshakePattern(
        name: "XK", responderPreMessage: [.s],
        messages: [.initiator(.e, .es), .responder(.e, .ee), .initiator(.s, .se)])

    /// `XX`: both parties transmit their static keys.
    public static let xx = NoiseHandshakePattern(
        name: "XX",
        messages: [.initiator(.e), .responder(.e, .ee, .s, .es), .initiator(.s, .se)])

    /// `IN`: the initiator transmits its static key in the first message; the responder has none.
    public static let `in` = NoiseHandshakePattern(
        name: "IN",
        messages: [.initiator(.e, .s), .responder(.e, .ee, .se)])

    /// `IK`: the initiator transmits its static key in the first message and knows the responder's in advance.
    public static let ik = NoiseHandshakePattern(
        name: "IK", responderPreMessage: [.s],
        messages: [.initiator(.e, .es, .s, .ss), .responder(.e, .ee, .se)])

    /// `IX`: the initiator transmits its static key in the first message; the responder transmits its own.
    public static let ix = NoiseHandshakePattern(
        name: "IX",
        messages: [.initiator(.e, .s), .responder(.e, .ee, .se, .s, .es)])

    /// Every supported pattern, in the order the spec lists them.
    public static let fundamental: [NoiseHandshakePattern] = [
        .nn, .nk, .nx, .kn, .kk, .kx, .xn, .xk, .xx, .in, .ik, .ix,
    ]

    /// The supported pattern with the given name (for example `XX`), or `nil`.
    public static func named(_ name: String) -> NoiseHandshakePattern? {
        fundamental.first { $0.name == name }
    }
}
