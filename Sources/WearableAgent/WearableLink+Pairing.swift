import Foundation
import Logging
import RelayLink
import RelayLinkRuntime
import RelayStore
import RelayWire
import WearableUI

/// A pairing in progress on the wearable: the code exchange and the key it would store.
struct PairingSession: Sendable {
    var exchange: PairingExchange
    let remoteKey: Data
    /// The pairing connection's handshake hash: which pairing a timer was started for.
    let handshake: Data
    /// The code on the screen, once it is there: the user's answer is for it alone.
    var shownCode: String?
    /// Whether the user answered: the timeout then waits once more for the phone's answer
    /// (rather than undo a confirmation that may be on its way), and ends the pairing after that.
    var answered = false
}

extension WearableLink {
    /// A `Noise_XX` connection came up: commit to a nonce and wait for the phone's.
    func startPairing(_ link: LinkIdentity) {
        var exchange = PairingExchange(side: .responder, handshakeHash: link.handshakeHash)
        let steps = exchange.start()
        state.withLock {
            $0.pairing = PairingSession(exchange: exchange, remoteKey: link.remoteStaticKey, handshake: link.handshakeHash)
        }
        let timeout = configuration.pairingTimeout
        let clock = configuration.linkClock
        let handshake = link.handshakeHash
        let started = clock.now
        Task { [weak self] in
            try? await clock.sleep(until: started + timeout)
            guard self?.givePairingUp(handshake, after: timeout, finally: false) == false else { return }
            // The user answered in time: the phone has as long again to answer too.
            try? await clock.sleep(until: started + timeout * 2)
            _ = self?.givePairingUp(handshake, after: timeout * 2, finally: true)
        }
        carryOut(steps)
    }

    /// Ends the pairing of `handshake` if it is still waiting after `timeout`; unless `finally`,
    /// not one the user answered. Returns whether the pairing is over (ended now, or before).
    private func givePairingUp(_ handshake: Data, after timeout: Duration, finally: Bool) -> Bool {
        let failure = PairingFailure.timedOut(seconds: timeout.components.seconds)
        let outcome = state.withLock { state -> (over: Bool, gaveUp: Bool) in
            guard let session = state.pairing, session.handshake == handshake else { return (true, false) }
            guard finally || !session.answered else { return (false, false) }
            state.pairing = nil
            state.commands?.yield(.close(failure.description))
            return (true, true)
        }
        guard outcome.gaveUp else { return outcome.over }
        logger.warning("pairing failed: \(failure)")
        present([.pairingFinished])
        return true
    }

    func receivePairing(_ message: Relay_V1_Pairing) {
        let steps = state.withLock { state -> [PairingExchange.Step] in
            guard var session = state.pairing else { return [.failed(.malformed("a pairing message outside pairing"))] }
            let steps = session.exchange.receive(message)
            state.pairing = session
            return steps
        }
        carryOut(steps)
    }

    /// The user's answer on the wearable (Select: the codes match; Back: they do not) to the
    /// code the screen showed. An answer to another code than the pairing's (a new pairing took
    /// the screen as the user pressed) is ignored: a Select meant for one phone's code must
    /// never pair another.
    public func confirmPairing(_ accepted: Bool, code: String) {
        let steps = state.withLock { state -> [PairingExchange.Step] in
            guard var session = state.pairing else { return [] }
            guard session.shownCode == code else {
                logger.warning("pairing: an answer for code \(code) came while code \(session.shownCode ?? "none") is being paired; ignored")
                return []
            }
            let steps = session.exchange.decide(accepted)
            session.answered = true
            state.pairing = session
            return steps
        }
        carryOut(steps)
    }

    /// Whether a pairing is waiting for the user.
    public var isPairing: Bool { state.withLock { $0.pairing != nil } }

    private func carryOut(_ steps: [PairingExchange.Step]) {
        for step in steps {
            switch step {
            case .send(let message):
                state.withLock { _ = $0.commands?.yield(.unlogged(.pairing(message))) }
            case .showCode(let code):
                state.withLock { $0.pairing?.shownCode = code }
                logger.notice("pairing: compare the code \(code) with the phone's and press Select if they match")
                present([.pairingCode(code)])
            case .paired:
                do {
                    try adoptPartner()
                    logger.notice("pairing: paired; only this phone may connect from now on")
                } catch {
                    logger.error("pairing: could not store the phone's key: \(error)")
                    state.withLock { _ = $0.commands?.yield(.close("the wearable could not store the pairing")) }
                }
                present([.pairingFinished])
            case .failed(let failure):
                logger.warning("pairing failed: \(failure)")
                state.withLock { state in
                    state.pairing = nil
                    state.commands?.yield(.close("pairing failed: \(failure)"))
                }
                present([.pairingFinished])
            }
        }
    }

    /// Stores the new partner's key. A new partner starts from nothing: the replica and the
    /// logs of any earlier partner are forgotten in the same step.
    private func adoptPartner() throws {
        let removed = try state.withLock { state -> [UInt64] in
            guard let session = state.pairing else { return [] }
            let kept = try forgetReplica(&state)
            try keys.setPartner(session.remoteKey)
            let removed = Array(state.replica.contents.notifications.keys)
            state.replica = Replica(contents: kept)
            state.partnerKey = session.remoteKey
            state.pairing = nil
            // Other connections set up meanwhile (pairing ones never confirmed) go: only the
            // new partner, on its next connection, gets a session.
            for (id, commands) in state.connections where id != state.current {
                commands.yield(.close("the wearable was paired with another phone"))
            }
            return removed
        }
        present(removed.map { .remove(identifier: WireKey.identifier($0)) })
    }
}
