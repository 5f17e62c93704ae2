public import Foundation
import RelayLink
import RelayStore

/// The link as `relayctl status` shows it on the wearable.
public struct WearableLinkStatus: Sendable, Hashable {
    /// "unpaired", "pairing", "connected" or "out of range".
    public var state: String
    /// The phone's name, from its hello, while connected.
    public var peerName: String?
    /// The partner's key fingerprint.
    public var partnerFingerprint: String?
    /// This wearable's key fingerprint.
    public var ownFingerprint: String
    /// When the current session came up.
    public var connectedSince: Date?
    /// Events (responses, alert reports) not yet acknowledged by the phone.
    public var queued: Int
    /// Notifications in the replica.
    public var shown: Int
    /// The last failure, until the next session comes up.
    public var lastError: String?
    /// The last heartbeat's round trip.
    public var roundTrip: Duration?
    /// What the partner's last Hello did to the wearable's clock; `nil` before one came.
    public var clockAdjustment: ClockAdjustment?
}

extension WearableLink {
    /// The link's status now.
    public var status: WearableLinkStatus {
        let queued = (try? database.read { db in try LinkLogTables.unacknowledgedCount(db) }) ?? 0
        return state.withLock { state in
            let phase =
                state.pairing != nil ? "pairing"
                : state.partnerKey == nil ? "unpaired"
                : state.connectedSince != nil ? "connected" : "out of range"
            return WearableLinkStatus(
                state: phase, peerName: state.peer?.deviceName, partnerFingerprint: state.partnerKey.map(PublicKeyText.fingerprint),
                ownFingerprint: PublicKeyText.fingerprint(localKey.publicKey), connectedSince: state.connectedSince,
                queued: queued, shown: state.replica.contents.notifications.count, lastError: state.lastError,
                roundTrip: state.roundTrip, clockAdjustment: state.clockAdjustment)
        }
    }
}
