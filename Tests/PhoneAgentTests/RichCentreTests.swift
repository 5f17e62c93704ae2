import Foundation
import PhoneAgent
import RelayCore
import RelayFreedesktop
import Testing

/// The centre's rich API (Docs/RICH-API.md) with dates passed in: no D-Bus, no clock.
@Suite struct RichCentreTests {
    static let app = "org.example.Social"
    /// 2027-06-07T09:41:00Z, a Monday.
    let now = Date(timeIntervalSince1970: 1_812_361_260)
    let utc = TimeZone(identifier: "UTC") ?? .gmt

    private func request(
        _ identifier: String = "post-1", title: String = "Jane", category: String = "", trigger: NotificationTrigger? = nil
    ) -> NotificationRequest {
        NotificationRequest(
            identifier: identifier,
            content: NotificationContent(title: title, body: "New photo", categoryIdentifier: category, threadIdentifier: "jane"),
            trigger: trigger)
    }

    private let comments = NotificationCategory(
        identifier: "comment-category",
        actions: [
            NotificationAction(identifier: "like", title: "Like"),
            NotificationAction(identifier: "comment", title: "Comment", textInput: TextInputOptions(suggestedReplies: ["Nice!"])),
        ])

    @Test func postingTheSameIdentifierAgainUpdatesInPlace() throws {
        var centre = NotificationCentre()
        let first = try centre.post(request(title: "Jane"), appID: Self.app, sender: ":1.7", now: now)
        let other = try centre.post(request("post-2"), appID: Self.app, sender: ":1.7", now: now)
        // The same identifier from another app is another notification.
        let elsewhere = try centre.post(request(), appID: "org.example.Other", sender: ":1.9", now: now)
        let update = try centre.post(request(title: "Jane (edited)"), appID: Self.app, sender: ":1.8", now: now + 5)
        #expect(!first.replaced && update.replaced && update.id == first.id)
        #expect(Set([first.id, other.id, elsewhere.id]).count == 3)
        let updated = try #require(centre.delivered[first.id])
        #expect(updated.content.title == "Jane (edited)" && updated.sender == ":1.8")
        #expect(updated.origin.rich?.date == now + 5 && updated.request?.identifier == "post-1")
        #expect(centre.delivered(appID: Self.app).map(\.id) == [first.id, other.id])
    }

    @Test func validationNamesTheFieldAndChangesNothing() {
        var centre = NotificationCentre()
        let long = String(repeating: "x", count: 300)
        #expect(throws: RichError.invalid("request.content.title is 300 bytes long; the limit is 256 bytes (UTF-8)")) {
            try centre.post(request(title: long), appID: Self.app, sender: nil, now: now)
        }
        #expect(throws: RichError.invalid("app_id is empty; give it a value")) {
            try centre.post(request(), appID: "", sender: nil, now: now)
        }
        #expect(throws: RichError.self) {
            try centre.post(request(trigger: .timeInterval(seconds: 5, repeats: false)), appID: Self.app, sender: nil, now: now)
        }
        let reserved = NotificationCategory(identifier: "c", actions: [NotificationAction(identifier: "dismiss", title: "No")])
        #expect(throws: RichError.invalid("categories[1].actions[0].identifier is 'dismiss', which is reserved for the dismiss response; choose another identifier")) {
            try centre.setCategories([comments, reserved], appID: Self.app)
        }
        #expect(throws: RichError.invalid("categories uses the identifier 'comment-category' more than once; identifiers must be unique")) {
            try centre.setCategories([comments, comments], appID: Self.app)
        }
        #expect(centre.list.isEmpty && centre.apps.categories.isEmpty)
    }

    @Test func categoryActionsBecomeTheNotificationsActionsAndResponsesGoToThePoster() throws {
        var centre = NotificationCentre()
        try centre.setCategories([comments], appID: Self.app)
        let id = try centre.post(request(category: "comment-category"), appID: Self.app, sender: ":1.7", now: now).id
        let notification = try #require(centre.delivered[id])
        #expect(notification.actions.map(\.key) == ["default", "like", "comment"])
        #expect(notification.acceptsReply && notification.appName == Self.app)

        // A text-input action is answered with a reply, not invoked bare; a plain action is not a reply.
        #expect(throws: CentreError.textRequired(id: id, key: "comment")) { try centre.invoke(id, action: "comment") }
        #expect(throws: CentreError.notATextInputAction(id: id, key: "like", textInputActions: ["comment"])) {
            try centre.reply(id, text: "hi", action: "like")
        }
        #expect(try centre.reply(id, text: "Nice!") == [
            .response(RichResponse(appID: Self.app, identifier: "post-1", action: "comment", text: "Nice!", destination: ":1.7"))
        ])
        // Rich notifications are never resident: acting removes them, without freedesktop signals.
        #expect(centre.list.isEmpty)

        let again = try centre.post(request(category: "comment-category"), appID: Self.app, sender: ":1.7", now: now).id
        #expect(try centre.invoke(again, action: "default") == [
            .response(RichResponse(appID: Self.app, identifier: "post-1", action: "default", destination: ":1.7"))
        ])
    }

    @Test func dismissalsAreReportedOnlyWithCustomDismissAction() throws {
        var centre = NotificationCentre()
        var reporting = comments
        reporting.identifier = "reporting"
        reporting.options = [.customDismissAction]
        try centre.setCategories([comments, reporting], appID: Self.app)
        let silent = try centre.post(request("a", category: "comment-category"), appID: Self.app, sender: ":1.7", now: now).id
        let reported = try centre.post(request("b", category: "reporting"), appID: Self.app, sender: ":1.7", now: now).id
        #expect(try centre.dismiss(silent).isEmpty)
        #expect(try centre.dismiss(reported) == [
            .response(RichResponse(appID: Self.app, identifier: "b", action: "dismiss", destination: ":1.7"))
        ])
        #expect(centre.list.isEmpty)
    }

    @Test func freedesktopCallsDoNotTouchRichNotifications() throws {
        var centre = NotificationCentre()
        let id = try centre.post(request(), appID: Self.app, sender: ":1.7", now: now).id
        #expect(centre.close(id, reason: .closedByCall).isEmpty)
        let call = PostedNotification(appName: "x", replacesID: id, summary: "Other", body: "", actions: [], hints: NotificationHints(), expireTimeout: -1)
        let outcome = centre.notify(call, sender: ":1.9", now: .now)
        #expect(!outcome.replaced && outcome.id != id)
        #expect(centre.delivered[id]?.content.title == "Jane")
        #expect(centre.delivered[outcome.id]?.origin == .freedesktop)
    }

    @Test func removingIsAllOrNothing() throws {
        var centre = NotificationCentre()
        _ = try centre.post(request("a"), appID: Self.app, sender: nil, now: now)
        _ = try centre.post(request("b"), appID: Self.app, sender: nil, now: now)
        #expect(throws: RichError.unknown(appID: Self.app, identifiers: ["zzz"], pending: false)) {
            try centre.removeDelivered(["a", "zzz"], appID: Self.app)
        }
        #expect(centre.delivered(appID: Self.app).count == 2)
        try centre.removeDelivered(["a"], appID: Self.app)
        #expect(centre.delivered(appID: Self.app).compactMap(\.request?.identifier) == ["b"])

        _ = try centre.schedule(request("later", trigger: .timeInterval(seconds: 600, repeats: false)), appID: Self.app, sender: nil, now: now, timeZone: utc)
        #expect(throws: RichError.unknown(appID: Self.app, identifiers: ["b"], pending: true)) {
            try centre.removePending(["later", "b"], appID: Self.app)
        }
        try centre.removePending(["later"], appID: Self.app)
        #expect(centre.pending(appID: Self.app).isEmpty && centre.nextFireDate == nil)
    }

    @Test func anAppsOldestDeliveredGoSilentlyBeyondTheLimit() throws {
        var centre = NotificationCentre()
        for index in 0...ModelLimits.deliveredPerApp {
            _ = try centre.post(request("p\(index)"), appID: Self.app, sender: nil, now: now)
        }
        let kept = centre.delivered(appID: Self.app).compactMap(\.request?.identifier)
        #expect(kept.count == ModelLimits.deliveredPerApp)
        #expect(kept.first == "p1" && kept.last == "p\(ModelLimits.deliveredPerApp)")
        // Posting a kept identifier again is an update in place, not one more; it is the newest then.
        let update = try centre.post(request("p1", title: "Updated"), appID: Self.app, sender: nil, now: now)
        #expect(update.replaced)
        #expect(centre.delivered(appID: Self.app).count == ModelLimits.deliveredPerApp)
        _ = try centre.post(request("one more"), appID: Self.app, sender: nil, now: now)
        let identifiers = Set(centre.delivered(appID: Self.app).compactMap(\.request?.identifier))
        #expect(identifiers.contains("p1") && !identifiers.contains("p2"))
    }

    @Test func thePhoneHoldsAtMostAThousandAndTwentyFourPendingRequestsInAll() throws {
        var centre = NotificationCentre()
        let later = NotificationTrigger.timeInterval(seconds: 600, repeats: false)
        for index in 0..<ModelLimits.pendingRequestsOverall {
            _ = try centre.schedule(request("r", trigger: later), appID: "org.example.app\(index)", sender: nil, now: now, timeZone: utc)
        }
        do {
            _ = try centre.schedule(request("r", trigger: later), appID: "org.example.one-more", sender: nil, now: now, timeZone: utc)
            Issue.record("a pending request past the limit in all was taken")
        } catch {
            #expect(error.description.contains("the most it keeps for all apps"))
        }
        // Replacing is still allowed.
        _ = try centre.schedule(request("r", trigger: later), appID: "org.example.app0", sender: nil, now: now, timeZone: utc)
    }

    @Test func anAppHasAtMostSixtyFourPendingRequests() throws {
        var centre = NotificationCentre()
        let later = NotificationTrigger.timeInterval(seconds: 600, repeats: false)
        for index in 0..<ModelLimits.pendingRequestsPerApp {
            _ = try centre.schedule(request("r\(index)", trigger: later), appID: Self.app, sender: nil, now: now, timeZone: utc)
        }
        do {
            _ = try centre.schedule(request("one-too-many", trigger: later), appID: Self.app, sender: nil, now: now, timeZone: utc)
            Issue.record("a 65th pending request was taken")
        } catch {
            #expect(error.description.contains("64 pending requests") && error.description.contains("RemovePending"))
        }
        // Replacing one of them is still allowed, and so is another app's request.
        _ = try centre.schedule(request("r0", trigger: later), appID: Self.app, sender: nil, now: now, timeZone: utc)
        _ = try centre.schedule(request("r0", trigger: later), appID: "org.example.Other", sender: nil, now: now, timeZone: utc)
        #expect(centre.pending(appID: Self.app).count == 64)
        try centre.removePending(["r1"], appID: Self.app)
        _ = try centre.schedule(request("one-more", trigger: later), appID: Self.app, sender: nil, now: now, timeZone: utc)
        #expect(centre.pending(appID: Self.app).count == 64)
    }

    @Test func aOneShotScheduleFiresOnceAndBecomesDelivered() throws {
        var centre = NotificationCentre()
        let pending = try centre.schedule(
            request(trigger: .timeInterval(seconds: 90, repeats: false)), appID: Self.app, sender: ":1.7", now: now, timeZone: utc)
        #expect(pending.nextFireDate == now + 90 && centre.nextFireDate == now + 90)
        #expect(centre.fireDue(now: now + 89.9).isEmpty)
        let fired = centre.fireDue(now: now + 90)
        #expect(fired.count == 1 && fired.first?.nextFireDate == nil)
        let id = try #require(fired.first?.id)
        #expect(centre.delivered[id]?.origin.rich?.date == now + 90)
        #expect(centre.delivered[id]?.request?.trigger == .timeInterval(seconds: 90, repeats: false))
        #expect(centre.pending(appID: Self.app).isEmpty && centre.nextFireDate == nil)
        #expect(centre.fireDue(now: now + 1000).isEmpty)
    }

    @Test func aRepeatingScheduleStaysPendingAndUpdatesItsNotificationInPlace() throws {
        var centre = NotificationCentre()
        _ = try centre.schedule(
            request(trigger: .timeInterval(seconds: 60, repeats: true)), appID: Self.app, sender: nil, now: now, timeZone: utc)
        let first = centre.fireDue(now: now + 60)
        #expect(first.map(\.nextFireDate) == [now + 120] && first.map(\.replaced) == [false])
        // Woken late (the phone slept through two occurrences): it fires once, then again on the grid.
        let late = centre.fireDue(now: now + 250)
        #expect(late.map(\.id) == first.map(\.id) && late.map(\.replaced) == [true])
        #expect(late.first?.nextFireDate == now + 300)
        #expect(centre.pending(appID: Self.app).map(\.nextFireDate) == [now + 300])
        #expect(centre.list.count == 1)
    }

    @Test func eachFiredOccurrenceCarriesItsFireDate() throws {
        var centre = NotificationCentre()
        _ = try centre.schedule(
            request(trigger: .timeInterval(seconds: 60, repeats: true)), appID: Self.app, sender: nil, now: now, timeZone: utc)
        let late = centre.fireDue(now: now + 250)
        // Missed occurrences fire once, as the latest: the one at 240 s.
        #expect(late.map(\.fireDate) == [now + 240])
        #expect(centre.list.first?.origin.rich?.occurrence == ScheduledOccurrence(fireDate: now + 240))
    }

    @Test func theWearablesOccurrencesAreTakenOverOnceOrWithdrawn() throws {
        var centre = NotificationCentre()
        _ = try centre.schedule(
            request(trigger: .timeInterval(seconds: 60, repeats: true)), appID: Self.app, sender: nil, now: now, timeZone: utc)
        _ = centre.fireDue(now: now + 60)
        // The phone fired 60 s itself: the wearable's report of it adds nothing.
        #expect(centre.adoptOccurrence(appID: Self.app, identifier: "post-1", fireDate: now + 60, now: now + 61) == .alreadyFired)
        // The wearable's clock ran ahead and fired 120 s first: the phone takes it over, marked as
        // fired on the wearable, and moves its schedule past it.
        guard case .adopted(let id) = centre.adoptOccurrence(appID: Self.app, identifier: "post-1", fireDate: now + 120, now: now + 119)
        else { Issue.record("not adopted"); return }
        #expect(centre.delivered[id]?.origin.rich?.occurrence == ScheduledOccurrence(fireDate: now + 120, firedOnWearable: true))
        #expect(centre.pending(appID: Self.app).map(\.nextFireDate) == [now + 180])
        #expect(centre.fireDue(now: now + 121).isEmpty, "the phone does not fire 120 s again")
        #expect(centre.adoptOccurrence(appID: Self.app, identifier: "post-1", fireDate: now + 120, now: now + 122) == .alreadyFired)
        // The app removes the request; an occurrence the wearable fired after that is withdrawn.
        try centre.removePending(["post-1"], appID: Self.app)
        #expect(centre.adoptOccurrence(appID: Self.app, identifier: "post-1", fireDate: now + 180, now: now + 200) == .withdrawn)
    }

    @Test func calendarTriggersUseTheZoneGivenAndLocationIsRefused() throws {
        var centre = NotificationCentre()
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        // Daily at 12:00 in Berlin: 10:00Z in summer.
        let noon = request("noon", trigger: .calendar(CalendarComponents(hour: 12), repeats: true))
        let pending = try centre.schedule(noon, appID: Self.app, sender: nil, now: now, timeZone: berlin)
        #expect(pending.nextFireDate == Date(timeIntervalSince1970: 1_812_362_400))

        let region = LocationRegion(identifier: "home", latitude: 52.5, longitude: 13.4, radius: 100)
        #expect(throws: RichError.invalid("request.trigger: location triggers are not supported: Relay has no location source yet; use a timeInterval or calendar trigger")) {
            try centre.schedule(request("geo", trigger: .location(region, repeats: false)), appID: Self.app, sender: nil, now: now, timeZone: berlin)
        }
        #expect(throws: RichError.self) {
            try centre.schedule(request("past", trigger: .calendar(CalendarComponents(year: 2020, month: 1), repeats: false)), appID: Self.app, sender: nil, now: now, timeZone: berlin)
        }
        #expect(throws: RichError.self) { try centre.schedule(request("none"), appID: Self.app, sender: nil, now: now, timeZone: berlin) }
        #expect(centre.pending(appID: Self.app).map(\.request.identifier) == ["noon"])
    }

    @Test func postingReplacesAPendingRequestWithTheSameIdentifier() throws {
        var centre = NotificationCentre()
        _ = try centre.schedule(request(trigger: .timeInterval(seconds: 60, repeats: false)), appID: Self.app, sender: nil, now: now, timeZone: utc)
        _ = try centre.post(request(), appID: Self.app, sender: nil, now: now)
        #expect(centre.nextFireDate == nil && centre.fireDue(now: now + 60).isEmpty)
    }
}
