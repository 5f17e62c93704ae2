public import Foundation
public import RelayStore

/// What relay-phone rebuilds its centre from at start-up, decided from what its database holds:
/// the notifications and the apps' registrations that can still be read, a line for each that
/// cannot (dropped, so that one damaged record never stops the agent), and the attachments the
/// survivors refer to (every other stored file is swept).
public struct PhoneRestore: Sendable {
    /// The centre's notifications, as stored.
    public var notifications: [CentreRecord]
    /// The apps' categories and scheduled requests.
    public var apps: AppRequests
    /// What was dropped and why, one log line each (after "relay-phone: ").
    public var dropped: [String]
    /// The attachments the restored notifications and scheduled requests refer to.
    public var attachmentsInUse: Set<AttachmentDigest>

    /// Decodes the stored notifications and registrations; `now` turns stored expiry dates back
    /// into instants.
    public init(
        notifications stored: [PhoneSchema.StoredNotification], apps storedApps: AppRequestsRecord?,
        now: (wall: Date, monotonic: ContinuousClock.Instant)
    ) {
        var dropped: [String] = []
        notifications = stored.compactMap { stored in
            do { return try CentreRecord.decode(stored.record) } catch {
                dropped.append("a stored notification (\(stored.centreID)) could not be read and is dropped: \(error)")
                return nil
            }
        }
        if let storedApps {
            let (restored, unusable) = storedApps.restored()
            apps = restored
            dropped += unusable.map { "a stored scheduled request (\($0)) no longer makes a schedule and is dropped" }
        } else {
            apps = AppRequests()
        }
        self.dropped = dropped
        let attachments = notifications.flatMap { $0.notification(now: now).content.attachments }
            + apps.pending.list().flatMap(\.request.content.attachments)
        attachmentsInUse = Set(attachments.compactMap { AttachmentDigest(url: $0.url) })
    }
}
