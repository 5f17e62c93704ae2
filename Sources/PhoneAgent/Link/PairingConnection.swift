import Foundation
import RelayLink
import RelayLinkRuntime
import RelayWire
import Synchronization

/// The phone's side of one pairing connection (`Noise_XX`, then the code exchange): a link
/// delegate with no logs that turns the exchange's steps into events for `PhoneLink.pair`.
final class PairingConnection: LinkDelegate, Sendable {
    /// What the user of `pair` waits for.
    enum Event: Sendable {
        /// Show this code and ask whether the wearable shows the same.
        case code(String, wearableName: String, fingerprint: String)
        /// Both confirmed: the wearable's public key.
        case paired(Data)
        /// It did not work, in words for people.
        case failed(String)
    }

    private struct State {
        var exchange: PairingExchange?
        var remoteKey: Data?
        var peerName = ""
    }

    private let state = Mutex(State())
    let events: AsyncStream<Event>
    private let sink: AsyncStream<Event>.Continuation
    let commands: AsyncStream<LinkConnectionDriver.Command>
    private let command: AsyncStream<LinkConnectionDriver.Command>.Continuation

    init() {
        (events, sink) = AsyncStream.makeStream()
        (commands, command) = AsyncStream.makeStream()
    }

    /// The local user's answer.
    func decide(_ accepted: Bool) {
        let steps = state.withLock { state -> [PairingExchange.Step] in
            guard var exchange = state.exchange else { return [] }
            let steps = exchange.decide(accepted)
            state.exchange = exchange
            return steps
        }
        carryOut(steps)
    }

    /// The connection ended; `outcome` says how, if it ended before pairing did.
    func ended(_ outcome: LinkConnectionDriver.Outcome) {
        switch outcome {
        case .failed(.refused(.notPairable)):
            // The refusal does not say why: Relay's wearable refuses while it has a partner,
            // another implementation may also while it is not in its pairing mode.
            sink.yield(.failed(
                "the wearable is not accepting pairing: it is paired with a phone already, or not waiting for one; "
                    + "run `relayctl unpair` on the wearable (or put it in pairing mode), then `relayctl pair` again"))
        case .failed(let failure):
            sink.yield(.failed("the pairing connection failed: \(failure)"))
        case .closed:
            sink.yield(.failed("the wearable closed the pairing connection"))
        }
        sink.finish()
    }

    /// Closes the connection.
    func close(_ reason: String) {
        command.yield(.close(reason))
        command.finish()
    }

    func loadLogs() async throws -> LinkSession.Logs {
        .pairing
    }

    func apply(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) async throws {
        throw PhoneLinkError("the wearable sent a log entry during pairing")
    }

    func acknowledged(through seq: UInt64) async throws {}
    func peerLogReset(epoch: UInt64) async throws {}

    func received(_ body: Relay_V1_Envelope.OneOf_Body) async {
        guard case .pairing(let message) = body else { return }
        let steps = state.withLock { state -> [PairingExchange.Step] in
            guard var exchange = state.exchange else { return [.failed(.malformed("a pairing message before the hello"))] }
            let steps = exchange.receive(message)
            state.exchange = exchange
            return steps
        }
        carryOut(steps)
    }

    func connected(peer: Relay_V1_Hello, link: LinkIdentity) async {
        let steps = state.withLock { state -> [PairingExchange.Step] in
            var exchange = PairingExchange(side: .initiator, handshakeHash: link.handshakeHash)
            let steps = exchange.start()
            state.exchange = exchange
            state.remoteKey = link.remoteStaticKey
            state.peerName = peer.deviceName
            return steps
        }
        carryOut(steps)
    }

    private func carryOut(_ steps: [PairingExchange.Step]) {
        for step in steps {
            switch step {
            case .send(let message):
                command.yield(.unlogged(.pairing(message)))
            case .showCode(let code):
                let (name, key) = state.withLock { ($0.peerName, $0.remoteKey ?? Data()) }
                sink.yield(.code(code, wearableName: name, fingerprint: PublicKeyText.fingerprint(key)))
            case .paired:
                if let key = state.withLock({ $0.remoteKey }) { sink.yield(.paired(key)) }
            case .failed(let failure):
                sink.yield(.failed("pairing failed: \(failure)"))
                command.yield(.close("pairing failed: \(failure)"))
            }
        }
    }
}
