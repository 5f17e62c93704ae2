import Foundation
@testable import PhoneAgent
import RelayCore
import RelayFreedesktop
import Testing

/// The centre's stored records: the directly written JSON reads back as the same record, and
/// as what `JSONEncoder` writes; records stored before keep decoding.
@Suite struct CentreRecordTests {
    let start = ContinuousClock.now
    let wall = Date(timeIntervalSinceReferenceDate: 785_000_123.456_789)

    private func record(
        summary: String = "Build finished", body: String = "All 1,432 tests passed", appName: String = "relay-bench",
        actions: [(String, String)] = [], hints: NotificationHints = NotificationHints(), timeout: Int32 = -1,
        sender: String? = ":1.42", attachments: [NotificationAttachment]? = nil
    ) -> CentreRecord {
        var call = PostedNotification(
            appName: appName, replacesID: 0, summary: summary, body: body,
            actions: actions.map { PostedNotification.Action(key: $0.0, label: $0.1) }, hints: hints, expireTimeout: timeout)
        call.attachments = attachments
        var centre = NotificationCentre()
        let id = centre.notify(call, sender: sender, now: start).id
        guard let notification = centre.delivered[id] else {
            Issue.record("the centre lost notification \(id)")
            return CentreRecord(
                DeliveredNotification(id: 0, posted: call, sender: nil, now: start), deliveredAt: wall, now: (wall, start))
        }
        return CentreRecord(notification, deliveredAt: wall, now: (wall, start))
    }

    /// Every record here must be written directly, read back equal, and equal what
    /// `JSONEncoder`'s form reads back as.
    private func expectRoundTrip(_ record: CentreRecord, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = try #require(record.directJSON(), sourceLocation: sourceLocation)
        #expect(record.encoded() == direct, sourceLocation: sourceLocation)
        #expect(try CentreRecord.decode(direct) == record, sourceLocation: sourceLocation)
        #expect(
            try CentreRecord.decode(record.encodedByJSONEncoder()) == CentreRecord.decode(direct),
            sourceLocation: sourceLocation)
        // Plain JSON any reader takes, not only Foundation's.
        #expect(try JSONSerialization.jsonObject(with: direct) is [String: Any], sourceLocation: sourceLocation)
    }

    @Test func aPlainNotificationRoundTrips() throws {
        try expectRoundTrip(record())
    }

    @Test func stringsNeedingEscapesRoundTrip() throws {
        let awkward = "quote \" backslash \\ slash / newline \n tab \t return \r bell \u{07} nul \u{00} unit \u{1F} del \u{7F}"
        try expectRoundTrip(record(summary: awkward, body: awkward, appName: awkward, actions: [(awkward, awkward)], sender: awkward))
        let unicode = "Grüße 👩‍👩‍👧 日本語 \u{2028}\u{2029} e\u{301} 𝄞"
        try expectRoundTrip(record(summary: unicode, body: unicode, appName: unicode, actions: [("default", unicode)]))
    }

    @Test func everyOptionalPartRoundTrips() throws {
        var hints = NotificationHints()
        hints.urgency = .low  // not critical: a critical one never expires, and the expiry is part of the record
        hints.soundName = "message-new-instant"
        hints.category = "im.received"
        hints.desktopEntry = "org.example.Chat"
        hints.resident = true
        hints.replyPlaceholder = "Reply…"
        let attachments = [
            NotificationAttachment(identifier: "image", url: "/tmp/picture.png", type: "image/png"),
            NotificationAttachment(identifier: "other", url: "file:///tmp/a \"b\".bin"),
        ]
        let full = record(
            actions: [("default", "Open"), ("inline-reply", "Reply")], hints: hints, timeout: 5000, sender: nil,
            attachments: attachments)
        #expect(full.expiresAt != nil)
        #expect(full.content.attachments.count == 2)
        try expectRoundTrip(full)

        var low = NotificationHints()
        low.urgency = .low
        try expectRoundTrip(record(summary: "", body: "", hints: low))
    }

    @Test func contentBeyondTheFreedesktopFormGoesThroughJSONEncoder() throws {
        var other = record()
        other.content.userInfo["count"] = .integer(3)
        other.content.badge = 4
        #expect(other.directJSON() == nil)
        #expect(try CentreRecord.decode(other.encoded()) == other)
    }

    @Test func aRecordStoredBeforeDecodes() throws {
        // As relay-phone wrote it with JSONEncoder, before expiries were kept.
        let stored = #"{"acceptsReply":false,"actionKeys":["default"],"actionLabels":["Open"],"appName":"notify-send","#
            + #""content":{"body":"Body","sound":"default","title":"Hello","userInfo":{"freedesktop.app_name":"notify-send"}},"#
            + #""deliveredAt":785000000.5,"id":7,"resident":false,"sender":":1.9"}"#
        let record = try CentreRecord.decode(Data(stored.utf8))
        #expect(record.id == 7 && record.expiresAt == nil)
        #expect(record.deliveredAt == Date(timeIntervalSinceReferenceDate: 785_000_000.5))
        #expect(try CentreRecord.decode(try #require(record.directJSON())) == record)
    }
}
