import Foundation
import RelayCore
import RelayExamples
import Testing

@Suite struct JSONFormTests {
    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let data = try RelayJSON.encode(value)
        let decoded = try RelayJSON.decode(T.self, from: data)
        #expect(decoded == value, "\(String(decoding: data, as: UTF8.self))")
        // The canonical form is stable: encoding the decoded value gives the same bytes.
        #expect(try RelayJSON.encode(decoded) == data)
        return decoded
    }

    @Test func everyTriggerKind() throws {
        let triggers: [NotificationTrigger] = [
            .push,
            .timeInterval(seconds: 90.5, repeats: false),
            .calendar(CalendarComponents(year: 2027, month: 3, day: 28, weekday: 1, hour: 2, minute: 30, second: 15), repeats: true),
            .location(LocationRegion(identifier: "home", latitude: 52.52, longitude: 13.405, radius: 150, notifyOnEntry: true, notifyOnExit: true), repeats: false),
        ]
        for trigger in triggers { _ = try roundTrip(trigger) }
    }

    @Test func contentWithEveryField() throws {
        let content = NotificationContent(
            title: "T", subtitle: "S", body: "B", badge: 3, sound: .named("message-new-instant"),
            userInfo: ["n": 1, "big": .integer(9_007_199_254_740_993), "f": .number(1.5), "b": true, "nil": .null,
                       "list": .array(["a", 2]), "obj": .object(["k": "v"])],
            categoryIdentifier: "c", threadIdentifier: "t",
            attachments: [NotificationAttachment(identifier: "a", url: "/tmp/a.png", type: "image/png")],
            interruptionLevel: .timeSensitive, summaryArgument: "Jane", summaryArgumentCount: 2)
        _ = try roundTrip(content)
        _ = try roundTrip(NotificationContent(sound: .default))
    }

    @Test func defaultsAreLeftOutAndAbsentFieldsTakeThem() throws {
        let data = try RelayJSON.encode(NotificationRequest(identifier: "x", content: NotificationContent(title: "Hi")))
        #expect(String(decoding: data, as: UTF8.self) == #"{"content":{"title":"Hi"},"identifier":"x"}"#)
        let decoded = try RelayJSON.decode(NotificationRequest.self, from: Data(#"{"identifier":"y","future":1}"#.utf8))
        #expect(decoded == NotificationRequest(identifier: "y", content: NotificationContent()))
    }

    @Test func categoriesActionsAndResponses() throws {
        for category in SeedExamples.categories.values { _ = try roundTrip(category) }
        _ = try roundTrip(NotificationResponse(notificationIdentifier: "n", action: .default, date: try instant("2027-01-01T00:00:00Z")))
        _ = try roundTrip(NotificationResponse(notificationIdentifier: "n", action: .dismiss, date: try instant("2027-01-01T00:00:00Z")))
        let reply = try roundTrip(NotificationResponse(
            notificationIdentifier: "n", action: .custom("comment-action"), userText: "Nice!", date: try instant("2027-01-01T00:00:00Z")))
        #expect(String(decoding: try RelayJSON.encode(reply), as: UTF8.self)
            == #"{"action":"comment-action","date":"2027-01-01T00:00:00Z","notificationIdentifier":"n","userText":"Nice!"}"#)
    }

    @Test func requestsAndDeliveredNotifications() throws {
        for request in SeedExamples.scheduled + SeedExamples.thaiVacationThread { _ = try roundTrip(request) }
        _ = try roundTrip(DeliveredNotification(request: try SeedExamples.newVideoRequest(), date: try instant("2027-06-07T09:41:00Z")))
    }

    @Test func pluralizedTextAcceptsAStringOrForms() throws {
        let plain = try RelayJSON.decode(PluralizedText.self, from: Data(#""Comment""#.utf8))
        #expect(plain == PluralizedText("Comment"))
        _ = try roundTrip(PluralizedText(one: "%u Comment", other: "%u Comments"))
        #expect(throws: DecodingError.self) { try RelayJSON.decode(PluralizedText.self, from: Data(#"{"one":"x"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try RelayJSON.decode(PluralizedText.self, from: Data(#"{"several":"x","other":"y"}"#.utf8)) }
    }

    @Test func unknownTriggerKindsAndOptionsAreClearErrors() {
        #expect(throws: DecodingError.self) {
            try RelayJSON.decode(NotificationTrigger.self, from: Data(#"{"kind":"sunrise"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try RelayJSON.decode(CategoryOptions.self, from: Data(#"["allowInCarPlay"]"#.utf8))
        }
    }
}
