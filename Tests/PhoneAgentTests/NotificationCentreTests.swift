import Foundation
import PhoneAgent
import RelayCore
import RelayFreedesktop
import Testing

/// The centre's freedesktop rules, with time passed in: no D-Bus, no clock.
@Suite struct NotificationCentreTests {
    let start = ContinuousClock.now

    private func call(
        _ summary: String = "Meeting", replacing id: UInt32 = 0, actions: [(String, String)] = [],
        resident: Bool = false, replyPlaceholder: String? = nil, timeout: Int32 = -1
    ) -> PostedNotification {
        var hints = NotificationHints()
        hints.resident = resident
        hints.replyPlaceholder = replyPlaceholder
        return PostedNotification(
            appName: "calendar", replacesID: id, summary: summary, body: "Join?",
            actions: actions.map { PostedNotification.Action(key: $0.0, label: $0.1) }, hints: hints, expireTimeout: timeout)
    }

    @Test func aLongActionKeyCutOnTheWireIsFoundAgain() throws {
        var centre = NotificationCentre()
        let long = "app.open-conversation('" + String(repeating: "7", count: 60) + "')"
        let id = centre.notify(call(actions: [("default", ""), (long, "Open"), ("app.mute", "Mute")]), sender: ":1.7", now: start).id
        let notification = try #require(centre.delivered[id])
        let wire = long.truncated(toUTF8Bytes: 64)
        #expect(wire != long)
        #expect(notification.actionKey(fromWire: wire) == long)
        #expect(notification.actionKey(fromWire: "app.mute") == "app.mute")
        #expect(notification.actionKey(fromWire: "unknown") == "unknown")
        #expect(try centre.invoke(id, action: notification.actionKey(fromWire: wire)).first == .actionInvoked(id: id, key: long))
    }

    @Test func anAppKeepsItsNewestThousandAndTheOldestClosesAsExpired() throws {
        var centre = NotificationCentre()
        let limit = ModelLimits.deliveredPerApp
        let ids = (0..<limit).map { centre.notify(call("n\($0)"), sender: ":1.7", now: start).id }
        // Another app's and a rich one under the same name count apart.
        var other = call("elsewhere")
        other.appName = "mail"
        let elsewhere = centre.notify(other, sender: ":1.8", now: start).id
        let rich = try centre.post(
            NotificationRequest(identifier: "r", content: NotificationContent(title: "Rich")), appID: "calendar", sender: nil, now: .now)
        // Updating the oldest makes it the newest (a progress notification stays); the next new
        // one closes the one posted longest ago.
        _ = centre.notify(call("n0 again", replacing: ids[0]), sender: ":1.7", now: start)
        #expect(centre.takeEvictions().isEmpty)
        _ = centre.notify(call("one more"), sender: ":1.7", now: start)
        #expect(centre.takeEvictions() == [.closed(id: ids[1], reason: .expired)])
        #expect(centre.takeEvictions().isEmpty, "taken once")
        #expect(centre.delivered[ids[1]] == nil && centre.delivered[ids[0]] != nil && centre.delivered[ids[2]] != nil)
        #expect(centre.delivered[elsewhere] != nil && centre.delivered[rich.id] != nil)
        #expect(centre.list.filter { $0.appName == "calendar" && $0.origin == .freedesktop }.count == limit)
    }

    /// A client names its app as it likes: past the limit in all, the notification posted or
    /// updated longest ago closes, whichever app it is from.
    @Test func theCentreKeepsItsNewestTenThousandInAll() {
        var centre = NotificationCentre()
        var first: UInt32 = 0
        for index in 0..<ModelLimits.deliveredOverall {
            var each = call("n\(index)")
            each.appName = "app \(index % 50)"
            let id = centre.notify(each, sender: ":1.7", now: start).id
            if index == 0 { first = id }
        }
        #expect(centre.takeEvictions().isEmpty)
        // Updated, the first is the newest; the second goes when one more comes.
        var again = call("n0 again", replacing: first)
        again.appName = "app 0"
        _ = centre.notify(again, sender: ":1.7", now: start)
        var more = call("one more")
        more.appName = "yet another app"
        _ = centre.notify(more, sender: ":1.7", now: start)
        #expect(centre.takeEvictions() == [.closed(id: first + 1, reason: .expired)])
        #expect(centre.delivered.count == ModelLimits.deliveredOverall)
    }

    /// Relay's own API's notifications go silently past the limit (the app gets no response),
    /// but the owner still learns which went, to tell the wearable they expired.
    @Test func richNotificationsBeyondTheLimitGoSilentlyButAreNamed() throws {
        var centre = NotificationCentre()
        var ids: [UInt32] = []
        for index in 0...ModelLimits.deliveredPerApp {
            let request = NotificationRequest(identifier: "r\(index)", content: NotificationContent(title: "Rich \(index)"))
            ids.append(try centre.post(request, appID: "calendar", sender: nil, now: .now).id)
        }
        #expect(centre.takeEvictions().isEmpty)
        #expect(centre.takeSilentEvictions() == [ids[0]])
        #expect(centre.takeSilentEvictions().isEmpty, "taken once")
        #expect(centre.delivered[ids[0]] == nil && centre.delivered[ids[1]] != nil)
    }

    @Test func idsStartAtOneAndAreNotReused() {
        var centre = NotificationCentre()
        let first = centre.notify(call(), sender: ":1.7", now: start)
        let second = centre.notify(call(), sender: ":1.7", now: start)
        #expect(first.id == 1 && second.id == 2)
        #expect(centre.close(1, reason: .closedByCall) == [.closed(id: 1, reason: .closedByCall)])
        // A closed id is not handed out again.
        #expect(centre.notify(call(), sender: nil, now: start).id == 3)
        #expect(centre.list.map(\.id) == [2, 3])
        #expect(centre.delivered[2]?.sender == ":1.7")
    }

    @Test func replacesIDKeepsALiveIDAndGivesAnUnknownOneANewID() {
        var centre = NotificationCentre()
        _ = centre.notify(call("Old"), sender: ":1.7", now: start)
        let replaced = centre.notify(call("New", replacing: 1), sender: ":1.8", now: start)
        #expect(replaced.id == 1 && replaced.replaced && replaced.expiresAt == nil)
        #expect(centre.delivered[1]?.content.title == "New")
        #expect(centre.delivered[1]?.sender == ":1.8")
        #expect(centre.list.count == 1)

        let unknown = centre.notify(call("Other", replacing: 42), sender: nil, now: start)
        #expect(unknown.id == 2 && !unknown.replaced)
        #expect(centre.delivered[42] == nil)
    }

    @Test func closingAnUnknownIDEmitsNothing() {
        var centre = NotificationCentre()
        #expect(centre.close(9, reason: .closedByCall).isEmpty)
    }

    @Test func invokingAnActionClosesANonResidentNotificationAsDismissed() throws {
        var centre = NotificationCentre()
        let id = centre.notify(call(actions: [("yes", "Yes"), ("no", "No")]), sender: nil, now: start).id
        #expect(try centre.invoke(id, action: "yes") == [.actionInvoked(id: id, key: "yes"), .closed(id: id, reason: .dismissedByUser)])
        #expect(centre.list.isEmpty)
    }

    @Test func invokingOnAResidentNotificationKeepsIt() throws {
        var centre = NotificationCentre()
        let id = centre.notify(call(actions: [("default", ""), ("play", "Play")], resident: true), sender: nil, now: start).id
        #expect(try centre.invoke(id, action: "default") == [.actionInvoked(id: id, key: "default")])
        #expect(try centre.invoke(id, action: "play") == [.actionInvoked(id: id, key: "play")])
        #expect(centre.list.map(\.id) == [id])
    }

    @Test func unknownActionsAndIDsAreRefusedWithoutChangingAnything() {
        var centre = NotificationCentre()
        let id = centre.notify(call(actions: [("yes", "Yes")]), sender: nil, now: start).id
        #expect(throws: CentreError.unknownAction(id: id, key: "maybe", available: ["yes"])) {
            try centre.invoke(id, action: "maybe")
        }
        #expect(throws: CentreError.unknownNotification(7)) { try centre.invoke(7, action: "yes") }
        #expect(throws: CentreError.unknownNotification(7)) { try centre.dismiss(7) }
        #expect(throws: CentreError.repliesNotAccepted(id)) { try centre.reply(id, text: "hi") }
        #expect(centre.list.map(\.id) == [id])
    }

    @Test func aReplyEmitsRepliedThenClosed() throws {
        var centre = NotificationCentre()
        let byHint = centre.notify(call(replyPlaceholder: "Reply…"), sender: nil, now: start).id
        let byAction = centre.notify(call(actions: [("inline-reply", "Reply")]), sender: nil, now: start).id
        #expect(try centre.reply(byHint, text: "on my way") == [.replied(id: byHint, text: "on my way"), .closed(id: byHint, reason: .dismissedByUser)])
        #expect(try centre.reply(byAction, text: "ok") == [.replied(id: byAction, text: "ok"), .closed(id: byAction, reason: .dismissedByUser)])
        #expect(centre.list.isEmpty)
    }

    @Test func dismissClosesAsDismissedByTheUser() throws {
        var centre = NotificationCentre()
        let id = centre.notify(call(), sender: nil, now: start).id
        #expect(try centre.dismiss(id) == [.closed(id: id, reason: .dismissedByUser)])
        #expect(throws: CentreError.unknownNotification(id)) { try centre.dismiss(id) }
    }

    @Test func expiryUsesTheTimePassedIn() {
        var centre = NotificationCentre()
        let short = centre.notify(call(timeout: 1000), sender: nil, now: start)
        let never = centre.notify(call(timeout: 0), sender: nil, now: start)
        let serverDefault = centre.notify(call(timeout: -1), sender: nil, now: start)
        #expect(short.expiresAt == start + .seconds(1))
        #expect(never.expiresAt == nil && serverDefault.expiresAt == nil)

        #expect(centre.expire(now: start + .milliseconds(999)).isEmpty)
        #expect(centre.expire(now: start + .seconds(1)) == [.closed(id: short.id, reason: .expired)])
        #expect(centre.expire(now: start + .seconds(3600)).isEmpty)
        #expect(centre.list.map(\.id) == [never.id, serverDefault.id])
    }

    @Test func replacingMovesTheExpirySoALateTimerClosesNothing() {
        var centre = NotificationCentre()
        let id = centre.notify(call(timeout: 1000), sender: nil, now: start).id
        let replaced = centre.notify(call(replacing: id, timeout: 5000), sender: nil, now: start + .milliseconds(900))
        #expect(replaced.expiresAt == start + .milliseconds(5900))
        // The first notification's timer fires at 1 s: the replacement is not due yet.
        #expect(centre.expire(now: start + .seconds(1)).isEmpty)
        #expect(centre.expire(now: start + .milliseconds(5900)) == [.closed(id: id, reason: .expired)])
    }
}
