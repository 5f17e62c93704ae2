import Foundation
import Logging
public import RelayLink
public import RelayLinkRuntime
import RelayStore
public import RelayWire

extension PhoneLink: LinkDelegate {
    public func loadLogs() async throws -> LinkSession.Logs {
        try database.read { db in try LinkLogTables.load(db) }
    }

    public func apply(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body) async throws {
        guard case .event(let event) = body else {
            throw PhoneLinkError("the wearable sent a log entry that is not an event")
        }
        guard let owner = owner.withLock({ $0 }) else { throw PhoneLinkError("no owner is attached to the link") }
        if let problem = WireLimits.problem(in: event) {
            // Refused, not trapped on: its place in the log is taken, so it is not sent again.
            logger.error("refused an event from the wearable: \(problem)", metadata: ["seq": "\(seq)"])
            try await committer.submit { db in _ = try LinkLogTables.claim(db, seq: seq) }.wait()
            return
        }
        try owner.apply(seq: seq, event: event)
    }

    public func acknowledged(through seq: UInt64) async throws {
        // Not synced: a crash that loses it costs nothing, since the next hello acknowledges
        // again; one sync fewer for every notification.
        try database.writeUnsynced { db in try LinkLogTables.acknowledge(db, through: seq) }
    }

    public func peerLogReset(epoch: UInt64) async throws {
        try await committer.submit { db in try LinkLogTables.peerLogReset(db, epoch: epoch) }.wait()
    }

    public func measured(roundTrip: Duration) async {
        state.withLock { $0.roundTrip = roundTrip }
    }

    public func received(_ body: Relay_V1_Envelope.OneOf_Body) async {
        // Outside pairing, the wearable asks only for attachments outside its log.
        guard case .attachmentRequest(let request) = body else { return }
        sendAttachment(request)
    }

    public func connected(peer: Relay_V1_Hello, link: LinkIdentity) async {
        state.withLock { state in
            state.peer = peer
            state.connectedSince = Date()
            state.lastError = nil
        }
        logger.info("connected to the wearable", metadata: ["name": "\(peer.deviceName)"])
        connectionChanged.current?(true)
    }
}

/// A problem on the phone's link, for the log and for people.
public struct PhoneLinkError: Error, CustomStringConvertible, Sendable {
    /// What happened and what to do.
    public let description: String

    init(_ description: String) { self.description = description }
}
