import Foundation
import Logging
import RelayLink
import RelayLinkRuntime
import RelayStore
import RelayTransport
import RelayWire
import Synchronization

/// The code to compare, from `PhoneLink.beginPairing`.
public struct PairingOffer: Sendable, Hashable {
    /// Six digits, the same on both devices unless someone is in the middle.
    public var code: String
    /// The wearable's name, from its hello.
    public var wearableName: String
    /// The wearable's key fingerprint.
    public var fingerprint: String
}

extension PhoneLink {
    /// Connects to the wearable in pairing mode and returns the code to compare. The session
    /// with an earlier partner, if any, is closed first.
    public func beginPairing(timeout: Duration = .seconds(60)) async throws -> PairingOffer {
        let pairing = PairingConnection()
        let previous = state.withLock { state -> PairingConnection? in
            defer { state.pairing = pairing }
            state.commands?.yield(.close("pairing with a wearable"))
            return state.pairing
        }
        previous?.close("another pairing started")
        let connection: FramedConnection
        do {
            connection = try await openPairingConnection(for: pairing)
        } catch {
            endPairing(pairing)
            throw PhoneLinkError("cannot reach the wearable at \(configuration.endpoint): \(error); is relay-wearable running?")
        }
        let driver = LinkConnectionDriver(
            role: .initiator(.pair), localKey: localKey, hello: hello, delegate: pairing, logger: logger,
            timeouts: LinkTimeouts(heartbeat: configuration.heartbeat, timeout: configuration.timeout))
        Task {
            let outcome = await driver.run(connection, commands: pairing.commands)
            pairing.ended(outcome)
        }
        switch try await next(pairing, timeout: timeout) {
        case .code(let code, let name, let fingerprint):
            return PairingOffer(code: code, wearableName: name, fingerprint: fingerprint)
        case .paired:
            endPairing(pairing)
            throw PhoneLinkError("the wearable confirmed before a code was shown")
        case .failed(let reason):
            endPairing(pairing)
            throw PhoneLinkError(reason)
        }
    }

    /// A connection for `pairing`: tried again each second after a failure, for as long as the
    /// connector's `pairingConnectWindow` allows and `pairing` is still the one under way (a
    /// second `relayctl pair` takes over; over Bluetooth each connect ends the link before it,
    /// so a retry of the first would cut the second's); the last failure is thrown.
    private func openPairingConnection(for pairing: PairingConnection) async throws -> FramedConnection {
        let deadline = ContinuousClock.now + (configuration.connector?.pairingConnectWindow ?? .zero)
        while true {
            do {
                return try await openConnection()
            } catch {
                guard ContinuousClock.now + .seconds(1) < deadline else { throw error }
                logger.notice("could not connect to the wearable for pairing (\(error)); trying again")
                try? await Task.sleep(for: .seconds(1))
                guard !Task.isCancelled, state.withLock({ $0.pairing === pairing }) else { throw error }
            }
        }
    }

    /// The user's answer to "does the wearable show the same code?". On yes, waits for the
    /// wearable's confirmation and stores its key; the session with the new partner starts.
    public func finishPairing(accepted: Bool, timeout: Duration = .seconds(120)) async throws -> String {
        guard let pairing = state.withLock({ $0.pairing }) else {
            throw PhoneLinkError("no pairing is in progress; run `relayctl pair` to start one")
        }
        pairing.decide(accepted)
        guard accepted else {
            endPairing(pairing)
            throw PhoneLinkError("pairing cancelled: the codes did not match")
        }
        defer { endPairing(pairing) }
        switch try await next(pairing, timeout: timeout) {
        case .paired(let key):
            try adopt(partner: key)
            return PublicKeyText.fingerprint(key)
        case .code:
            throw PhoneLinkError("the wearable sent a second code")
        case .failed(let reason):
            throw PhoneLinkError(reason)
        }
    }

    /// Forgets the partner (`relayctl unpair`): its key and the link's logs. The centre stays.
    /// The wearable, if the link is up, is told, so that it forgets this phone too.
    public func unpair() throws {
        try forget(.unpaired("the phone was unpaired (relayctl unpair)"))
        logger.notice("unpaired")
    }

    /// Returns once the running session, if any, has ended — its last frame written, such as
    /// the `UNPAIRED` that ``unpair()`` sends — or after `limit`. `relayctl unpair` waits for it
    /// before it removes the Bluetooth bond, which would drop the link under that frame.
    public func waitForSessionEnd(within limit: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume = ResumeOnce(continuation)
            let running = state.withLock { state -> Bool in
                guard state.commands != nil else { return false }
                state.sessionEndWaiters.append(resume.callAsFunction)
                return true
            }
            guard running else { return resume() }
            Task {
                try? await Task.sleep(for: limit)
                resume()
            }
        }
    }

    /// Calls `handler` each time the wearable unpairs this phone over the link (after the phone
    /// has forgotten it): the Bluetooth side removes its bond.
    public func whenPartnerUnpaired(_ handler: @escaping @Sendable () -> Void) {
        partnerUnpaired.withLock { $0 = handler }
    }

    /// Calls `handler` when a session with the wearable starts (`true`) and when one that had
    /// started ends (`false`), on the link's task.
    public func whenConnectionChanges(_ handler: @escaping @Sendable (_ connected: Bool) -> Void) {
        connectionChanged.set(handler)
    }

    /// The wearable said it forgot this phone: the phone forgets it too.
    func forgetPartner(unpairedBecause reason: String) {
        do {
            try forget(.close("the wearable unpaired this phone"))
            logger.notice("unpaired by the wearable (\(reason)); pair again with relayctl pair")
        } catch {
            logger.error("the wearable unpaired this phone, but it could not forget the wearable: \(error)")
            return
        }
        partnerUnpaired.withLock { $0 }?()
    }

    private func forget(_ closing: LinkConnectionDriver.Command) throws {
        try keys.forgetPartner()
        state.withLock { state in
            state.partnerKey = nil
            state.commands?.yield(closing)
        }
        try startOverForNewPartner()
    }

    private func adopt(partner key: Data) throws {
        try keys.setPartner(key)
        // Paired first, so the new epoch's snapshot is logged for the new partner.
        state.withLock { $0.partnerKey = key }
        try startOverForNewPartner()
        logger.notice("paired with the wearable \(PublicKeyText.fingerprint(key))")
    }

    /// Forgets the old partner's logs and starts a new epoch. With an owner, both happen in the
    /// owner's one transaction (MirrorCoordinator.startNewEpoch), with the mirror's keys: a
    /// crash between them would leave an empty log over the old partner's map, and the new
    /// wearable would never get a snapshot.
    private func startOverForNewPartner() throws {
        if let owner = owner.withLock({ $0 }) {
            try owner.startNewEpoch(newPartner: true)
        } else {
            try committer.submit { db in try PhoneSchema.forgetLink(db) }.waitBlocking()
        }
    }

    private func endPairing(_ pairing: PairingConnection) {
        pairing.close("pairing finished")
        state.withLock { state in
            if state.pairing === pairing { state.pairing = nil }
        }
        wakeToConnect()
    }

    private func next(_ pairing: PairingConnection, timeout: Duration) async throws -> PairingConnection.Event {
        try await withThrowingTaskGroup(of: PairingConnection.Event.self) { group in
            group.addTask {
                var events = pairing.events.makeAsyncIterator()
                return await events.next() ?? .failed("the pairing connection ended")
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return .failed("no answer within \(timeout.components.seconds) seconds")
            }
            let first = try await group.next() ?? .failed("the pairing connection ended")
            group.cancelAll()
            return first
        }
    }
}

/// Resumes a continuation once, whichever of its callers comes first.
private final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = Mutex(continuation)
    }

    func callAsFunction() {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }?.resume()
    }
}
