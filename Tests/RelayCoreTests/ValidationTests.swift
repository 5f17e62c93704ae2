import Foundation
import RelayCore
import RelayExamples
import Testing

@Suite struct ValidationTests {
    private func problems(_ request: NotificationRequest) -> [ValidationError] {
        request.validationProblems(at: "request")
    }

    @Test func emptyIdentifierIsReportedWithItsField() {
        let found = problems(NotificationRequest(identifier: "", content: NotificationContent(title: "Hi")))
        #expect(found == [ValidationError(field: "request.identifier", problem: .empty)])
        #expect(found[0].description == "request.identifier is empty; give it a value")
    }

    @Test func repeatIntervalUnderSixtySeconds() {
        let request = NotificationRequest(
            identifier: "r", content: NotificationContent(title: "x"), trigger: .timeInterval(seconds: 30, repeats: true))
        #expect(problems(request) == [ValidationError(field: "request.trigger.seconds", problem: .repeatIntervalTooShort(seconds: 30))])
        #expect(problems(request)[0].description.contains("at least 60 s"))
    }

    @Test func nonPositiveAndNonFiniteIntervals() {
        for seconds in [0, -5, Double.nan, Double.infinity] {
            let request = NotificationRequest(
                identifier: "r", content: NotificationContent(), trigger: .timeInterval(seconds: seconds, repeats: false))
            #expect(problems(request).map(\.field) == ["request.trigger.seconds"])
        }
    }

    @Test func fieldsOverTheirLimitsCountUTF8Bytes() {
        // 100 Cyrillic letters are 200 bytes: within the title limit. 129 are 258: over it.
        let fits = NotificationRequest(identifier: "r", content: NotificationContent(title: String(repeating: "ж", count: 128)))
        #expect(problems(fits).isEmpty)
        let over = NotificationRequest(identifier: "r", content: NotificationContent(title: String(repeating: "ж", count: 129)))
        #expect(problems(over) == [ValidationError(field: "request.content.title", problem: .tooLong(bytes: 258, limit: 256))])
        let body = NotificationRequest(identifier: "r", content: NotificationContent(body: String(repeating: "a", count: 5000)))
        #expect(problems(body).map(\.field) == ["request.content.body"])
    }

    @Test func calendarComponentsOutOfRangeOrImpossible() {
        let request = NotificationRequest(
            identifier: "r", content: NotificationContent(),
            trigger: .calendar(CalendarComponents(month: 2, day: 30, hour: 24), repeats: true))
        let found = problems(request)
        #expect(found.map(\.field) == ["request.trigger.components.hour", "request.trigger.components"])
        #expect(found[1].description == "request.trigger.components can never fire: month 2 has no day 30")
        let empty = NotificationRequest(identifier: "r", content: NotificationContent(), trigger: .calendar(CalendarComponents(), repeats: false))
        #expect(problems(empty).map(\.field) == ["request.trigger.components"])
    }

    @Test func duplicateAndReservedActionIdentifiers() {
        let category = NotificationCategory(
            identifier: "c",
            actions: [
                NotificationAction(identifier: "like", title: "Like"),
                NotificationAction(identifier: "like", title: "Like again"),
                NotificationAction(identifier: "default", title: "Open"),
            ])
        let found = category.validationProblems(at: "category")
        #expect(found.contains(ValidationError(field: "category.actions", problem: .duplicateIdentifier("like"))))
        #expect(found.contains(ValidationError(field: "category.actions[2].identifier", problem: .reservedIdentifier("default"))))
        #expect(found.count == 2)
    }

    @Test func tooManyActionsAndRepliesAndEmptyTitles() {
        let actions = (0..<11).map { NotificationAction(identifier: "a\($0)", title: $0 == 0 ? "" : "A") }
        let category = NotificationCategory(identifier: "c", actions: actions)
        let fields = category.validationProblems(at: "category").map(\.field)
        #expect(fields == ["category.actions", "category.actions[0].title"])
    }

    @Test func validateThrowsEveryProblemAtOnce() {
        let request = NotificationRequest(
            identifier: "", content: NotificationContent(badge: -1), trigger: .timeInterval(seconds: 1, repeats: true))
        #expect {
            try request.validate(as: "request")
        } throws: { error in
            (error as? ValidationFailure)?.problems.count == 3
        }
    }

    @Test func responsesMustNameADeclaredActionAndOnlyCarryTextWhereAsked() {
        let category = SeedExamples.videoCategory
        let date = Date(timeIntervalSince1970: 0)
        let like = NotificationResponse(notificationIdentifier: "v", action: .custom("like-action"), date: date)
        #expect(like.validationProblems(against: category, at: "response").isEmpty)
        let comment = NotificationResponse(notificationIdentifier: "v", action: .custom("comment-action"), userText: "Nice!", date: date)
        #expect(comment.validationProblems(against: category, at: "response").isEmpty)
        let likeWithText = NotificationResponse(notificationIdentifier: "v", action: .custom("like-action"), userText: "x", date: date)
        #expect(likeWithText.validationProblems(against: category, at: "response")
            == [ValidationError(field: "response.userText", problem: .unexpectedText(action: "like-action"))])
        let unknown = NotificationResponse(notificationIdentifier: "v", action: .custom("share"), date: date)
        #expect(unknown.validationProblems(against: category, at: "response")
            == [ValidationError(field: "response.action", problem: .unknownAction("share"))])
        let dismiss = NotificationResponse(notificationIdentifier: "v", action: .dismiss, date: date)
        #expect(dismiss.validationProblems(against: nil, at: "response").isEmpty)
    }

    @Test func everySeedExampleIsValid() throws {
        for category in SeedExamples.categories.values {
            try category.validate(as: "category")
        }
        let requests = SeedExamples.thaiVacationThread + SeedExamples.workThread + SeedExamples.scheduled
            + [SeedExamples.meetingInvite, SeedExamples.cyrillicMessage, SeedExamples.emojiMessage, try SeedExamples.newVideoRequest()]
        for request in requests {
            try request.validate(as: "request")
        }
        // The long body is a rendering fixture, not a model violation.
        try SeedExamples.longMessage.validate(as: "request")
    }
}
