public import Foundation
import RelayLink
import RelayStore

/// The link as `relayctl status` shows it.
public struct PhoneLinkStatus: Sendable, Hashable {
    /// "unpaired", "pairing", "connected" or "disconnected".
    public var state: String
    /// Where the wearable is reached.
    public var endpoint: String
    /// The wearable's name, from its hello, while connected.
    public var peerName: String?
    /// The partner's key fingerprint.
    public var partnerFingerprint: String?
    /// This phone's key fingerprint.
    public var ownFingerprint: String
    /// When the current session came up.
    public var connectedSince: Date?
    /// Changes not yet acknowledged by the wearable.
    public var unacknowledged: Int
    /// The last failure, until the next session comes up.
    public var lastError: String?
    /// Connection attempts since start.
    public var attempts: Int
    /// The last heartbeat's round trip.
    public var roundTrip: Duration?
}

extension PhoneLink {
    /// The link's status now.
    public var status: PhoneLinkStatus {
        let unacknowledged = (try? database.read { db in try LinkLogTables.unacknowledgedCount(db) }) ?? 0
        return state.withLock { state in
            let phase =
                state.pairing != nil ? "pairing"
                : state.partnerKey == nil ? "unpaired"
                : state.connectedSince != nil ? "connected" : "disconnected"
            return PhoneLinkStatus(
                state: phase, endpoint: configuration.endpoint.description, peerName: state.peer?.deviceName,
                partnerFingerprint: state.partnerKey.map(PublicKeyText.fingerprint),
                ownFingerprint: PublicKeyText.fingerprint(localKey.publicKey), connectedSince: state.connectedSince,
                unacknowledged: unacknowledged, lastError: state.lastError, attempts: state.attempts,
                roundTrip: state.roundTrip)
        }
    }
}
