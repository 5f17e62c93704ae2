import Foundation
import PhoneAgent
import RelayCore
import RelayStore
import Testing

/// What relay-phone rebuilds at start-up from what its database holds: no database, the
/// stored rows passed in.
@Suite struct PhoneRestoreTests {
    let now = (wall: Date(timeIntervalSince1970: 1_812_361_260), monotonic: ContinuousClock.now)
    let photo = "sha256:" + String(repeating: "ab", count: 32)

    @Test func aDamagedRecordIsDroppedAndSaidTheRestIsRestoredWithTheFilesItUses() throws {
        var centre = NotificationCentre()
        var content = NotificationContent(title: "Beach")
        content.attachments = [NotificationAttachment(identifier: "photo", url: photo, type: "image/jpeg")]
        let posted = try centre.post(NotificationRequest(identifier: "p", content: content), appID: "org.example.Photos", sender: nil, now: now.wall)
        let notification = try #require(centre.delivered[posted.id])
        let good = CentreRecord(notification, deliveredAt: now.wall, now: now).encoded()
        let restore = PhoneRestore(
            notifications: [
                .init(centreID: posted.id, key: 1, revision: 1, record: good),
                .init(centreID: 99, key: nil, revision: 0, record: Data("not a record".utf8)),
            ],
            apps: nil, now: now)
        #expect(restore.notifications.map(\.id) == [posted.id])
        #expect(restore.dropped.count == 1 && restore.dropped[0].hasPrefix("a stored notification (99) could not be read and is dropped: "))
        #expect(restore.attachmentsInUse == [try #require(AttachmentDigest(url: photo))])
        #expect(restore.apps == AppRequests())
    }
}
