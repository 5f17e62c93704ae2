import Crypto
public import Foundation
public import RelayTransport
import RelayWire

/// A step of a case found the implementation at odds with Docs/PROTOCOL.md.
public struct ConformanceFailure: Error, CustomStringConvertible, Equatable {
    /// The section of PROTOCOL.md the step checks (`§8.5`).
    public let section: String
    /// What was expected and what came instead.
    public let message: String

    /// Creates a failure of the step checking `section`.
    public init(_ section: String, _ message: String) {
        self.section = section
        self.message = message
    }

    /// The section, then what went wrong.
    public var description: String { "\(section): \(message)" }
}

/// The implementation under test and what this side needs to reach it.
public struct ConformanceTarget: Sendable {
    /// How the two meet: the suite connects to an implementation that listens (a wearable), or
    /// takes the connections of one that connects (a phone).
    public enum Reach: Sendable {
        /// The implementation listens here (`unix:PATH`, `tcp:127.0.0.1:PORT`, `rfcomm:ADDRESS/CHANNEL`);
        /// over RFCOMM the suite connects from the adapter with `adapterAddress` if given (the
        /// one bonded with the implementation's device), else from the one the kernel picks.
        case listensAt(TransportEndpoint, adapterAddress: String? = nil)
        /// The implementation connects to the suite's listener.
        case connectsTo(ConformanceListener)
    }

    /// How the suite reaches the implementation.
    public var reach: Reach
    /// This side's static private key (32 bytes): its public key is the one the
    /// implementation holds as its partner's.
    public var localKey: Data
    /// The implementation's static public key (32 bytes).
    public var peerKey: Data
    /// How long the implementation may take to answer one step (or, connecting, to come back).
    /// Generous: a step waits for an answer, not for this long, except where the protocol
    /// allows silence.
    public var patience: Duration
    /// Makes the implementation append an entry to its log (a phone: a notification posted on
    /// its bus); `nil` skips the cases that need one.
    public var appendEntry: (@Sendable () async throws -> Void)?
    /// Makes a phone append a notification carrying an attachment (an image) to its log;
    /// `nil` skips the phone's bulk-channel case (§8.8).
    public var appendAttachment: (@Sendable () async throws -> Void)?
    /// Whether the cases may unpair the implementation (§9.1): it forgets its partner, so it
    /// must be paired again afterwards. Off by default; those cases are skipped.
    public var mayUnpair: Bool
    /// A wearable: answers "yes, the codes match" on the wearable once it shows the pairing
    /// code it is given (§7.2); `nil` skips the wearable's pairing case. It runs after §9.1's
    /// case unpaired the wearable, and pairs it with this side again.
    public var confirmPairing: (@Sendable (String) async throws -> Void)?
    /// A phone: pairs it with this side, confirming the code on the phone (`relayctl pair
    /// --yes`), and returns what the phone showed, which must hold the code; `nil` skips the
    /// phone's pairing case. The phone pairs with the same key again.
    public var startPairing: (@Sendable () async throws -> String)?
    /// The most entries a phone sends without an acknowledgement (§8.4's `window`, a sender's
    /// parameter: 64 unless the phone says otherwise).
    public var window: Int

    /// Describes a target.
    public init(
        reach: Reach, localKey: Data, peerKey: Data, patience: Duration = .seconds(10),
        appendEntry: (@Sendable () async throws -> Void)? = nil, appendAttachment: (@Sendable () async throws -> Void)? = nil,
        mayUnpair: Bool = false, confirmPairing: (@Sendable (String) async throws -> Void)? = nil,
        startPairing: (@Sendable () async throws -> String)? = nil, window: Int = 64
    ) {
        self.mayUnpair = mayUnpair
        self.appendAttachment = appendAttachment
        self.confirmPairing = confirmPairing
        self.startPairing = startPairing
        self.window = window
        self.reach = reach
        self.localKey = localKey
        self.peerKey = peerKey
        self.patience = patience
        self.appendEntry = appendEntry
    }

    /// This side's key, for the handshake.
    var localPrivateKey: Curve25519.KeyAgreement.PrivateKey {
        get throws { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: localKey) }
    }

    /// The implementation's key, for the handshake.
    var peerPublicKey: Curve25519.KeyAgreement.PublicKey {
        get throws { try Curve25519.KeyAgreement.PublicKey(rawRepresentation: peerKey) }
    }

    /// Connects (or takes the implementation's next connection), runs `body` on it, and closes it.
    public func connect<Result: Sendable>(_ body: (WireScript) async throws -> Result) async throws -> Result {
        let connection =
            switch reach {
            case .listensAt(let endpoint, let adapter): try await connect(to: endpoint, fromAdapter: adapter)
            case .connectsTo(let listener): try await listener.next(within: patience, "§2")
            }
        return try await script(on: connection, body)
    }

    /// Connects to `endpoint`, again while an RFCOMM channel is busy with the connection a
    /// case just closed (its disconnection takes a moment on the Bluetooth link), within the
    /// patience.
    private func connect(to endpoint: TransportEndpoint, fromAdapter adapter: String?) async throws -> FramedConnection {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                return try await Transport.connect(to: endpoint, fromAdapter: adapter)
            } catch {
                guard case .channelBusy = error, ContinuousClock.now < deadline else { throw error }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Whether two connections to the implementation can be open at once: not over RFCOMM,
    /// which carries one connection per channel between two devices.
    var allowsOverlappingConnections: Bool {
        if case .listensAt(.rfcomm, _) = reach { return false }
        return true
    }

    /// Runs `body` on `connection`, and closes it.
    func script<Result: Sendable>(on connection: FramedConnection, _ body: (WireScript) async throws -> Result) async throws -> Result {
        try await connection.runBatches { batches, writer in
            let inbox = Arrivals<Data>()
            let reader = Task {
                do {
                    for try await batch in batches { await inbox.deliver(batch) }
                    await inbox.finish(.closed)
                } catch {
                    await inbox.finish(.failed(error))
                }
            }
            defer { reader.cancel() }
            return try await body(WireScript(writer: writer, inbox: inbox, patience: patience))
        }
    }
}

/// One check of the document against an implementation: a connection (or several) scripted
/// frame by frame.
public struct ConformanceCase: Sendable {
    /// The section of PROTOCOL.md it checks.
    public let section: String
    /// What must hold, as a sentence.
    public let name: String
    let body: @Sendable (ConformanceTarget) async throws -> Void

    init(_ section: String, _ name: String, _ body: @escaping @Sendable (ConformanceTarget) async throws -> Void) {
        self.section = section
        self.name = name
        self.body = body
    }

    /// How a case ended.
    public enum Outcome: Sendable, Equatable {
        /// What it checks held.
        case held
        /// It did not, and why.
        case failed(ConformanceFailure)
        /// It was not run, and why (the target lacks what it needs, or was not allowed it).
        case skipped(String)
    }

    /// Runs the case against `target`.
    public func run(against target: ConformanceTarget) async -> Outcome {
        do {
            try await body(target)
            return .held
        } catch let skip as ConformanceSkip {
            return .skipped(skip.reason)
        } catch let failure as ConformanceFailure {
            return .failed(failure)
        } catch {
            return .failed(ConformanceFailure(section, "the script could not go on: \(error)"))
        }
    }
}

/// Thrown by a case that cannot run against this target; it is reported, not counted as held.
struct ConformanceSkip: Error {
    let reason: String
}
