import Crypto
import Foundation
import RelayNoise
import Testing

/// Keys for both parties of a handshake, generated afresh so no test depends on fixed key material.
struct PartyKeys {
    let initiatorStatic = Curve25519.KeyAgreement.PrivateKey()
    let responderStatic = Curve25519.KeyAgreement.PrivateKey()
    let initiatorEphemeral = Curve25519.KeyAgreement.PrivateKey()
    let responderEphemeral = Curve25519.KeyAgreement.PrivateKey()

    /// A handshake state holding exactly the keys `pattern` requires of `role`.
    ///
    /// With `injectEphemerals`, two runs with the same `PartyKeys` produce identical messages,
    /// which lets a test replay a handshake after one attempt has poisoned the state.
    func handshake(
        _ pattern: NoiseHandshakePattern, role: NoiseRole, prologue: Data = Data("relay".utf8),
        injectEphemerals: Bool = false
    ) throws(NoiseError) -> HandshakeState {
        let localStatic = role == .initiator ? initiatorStatic : responderStatic
        let remoteStatic = role == .initiator ? responderStatic : initiatorStatic
        let localEphemeral = role == .initiator ? initiatorEphemeral : responderEphemeral
        return try HandshakeState(
            pattern: pattern, role: role, prologue: prologue,
            localStaticKey: pattern.usesStaticKey(of: role) ? localStatic : nil,
            localEphemeralKey: injectEphemerals ? localEphemeral : nil,
            remoteStaticKey: pattern.preMessage(of: role.peer).contains(.s) ? remoteStatic.publicKey : nil)
    }
}

/// Runs a handshake to completion, each side writing when `status` says so, and checks every payload arrives.
func completeHandshake(_ initiator: inout HandshakeState, _ responder: inout HandshakeState) throws {
    for round in 0..<initiator.pattern.messages.count {
        let payload = Data("handshake payload \(round)".utf8)
        switch (initiator.status, responder.status) {
        case (.writeMessage, .readMessage):
            #expect(try responder.readMessage(try initiator.writeMessage(payload)) == payload)
        case (.readMessage, .writeMessage):
            #expect(try initiator.readMessage(try responder.writeMessage(payload)) == payload)
        case let (initiatorStatus, responderStatus):
            Issue.record("unexpected statuses \(initiatorStatus) and \(responderStatus) in round \(round)")
            return
        }
    }
    #expect(initiator.status == .complete)
    #expect(responder.status == .complete)
}

/// Both ends of a transport link; a struct because tuples cannot hold non-copyable sessions.
struct SessionPair: ~Copyable {
    var initiator: TransportSession
    var responder: TransportSession

    /// The sessions from a completed handshake of `pattern` with fresh keys.
    init(_ pattern: NoiseHandshakePattern = .xx, keys: PartyKeys = PartyKeys()) throws {
        var initiator = try keys.handshake(pattern, role: .initiator)
        var responder = try keys.handshake(pattern, role: .responder)
        try completeHandshake(&initiator, &responder)
        try self.init(finishing: initiator, responder)
    }

    /// The sessions from two completed handshake states.
    init(finishing initiator: consuming HandshakeState, _ responder: consuming HandshakeState) throws {
        // Both are finished before either is stored: a non-copyable value cannot be left half-initialised.
        let initiatorSession = try initiator.finish()
        let responderSession = try responder.finish()
        self.initiator = initiatorSession
        self.responder = responderSession
    }
}
