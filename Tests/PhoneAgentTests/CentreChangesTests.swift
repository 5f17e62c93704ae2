import Foundation
import PhoneAgent
import RelayCore
import RelayFreedesktop
import RelayWire
import Testing

/// What the phone records for the wearable after each operation on its centre, with the
/// centre's journal and the times passed in: no database, no link.
@Suite struct CentreChangesTests {
    let start = ContinuousClock.now
    /// 2027-06-07T09:41:00Z.
    let wall = Date(timeIntervalSince1970: 1_812_361_260)
    let utc = TimeZone(identifier: "UTC") ?? .gmt

    private func call(_ summary: String, replacing id: UInt32 = 0) -> PostedNotification {
        PostedNotification(appName: "calendar", replacesID: id, summary: summary, body: "", actions: [], hints: NotificationHints(), expireTimeout: -1)
    }

    /// The changes as text, one a line, for comparing.
    private func describe(_ changes: [MirrorCoordinator.CentreChange]) -> [String] {
        changes.map { change in
            switch change {
            case .posted(let item, let replaced, _): "\(replaced ? "replaced" : "posted") \(item.centreID) \(item.content.title) at \(item.deliveredAt.timeIntervalSince1970)"
            case .removed(let id, let reason): "removed \(id) \(reason)"
            case .scheduled(let item): "scheduled \(item.appName)/\(item.identifier)"
            case .unscheduled(let app, let identifier): "unscheduled \(app)/\(identifier)"
            case .firedOnWearable(let key, _, _, _): "fired on the wearable \(key)"
            }
        }
    }

    private func take(
        _ centre: inout NotificationCentre, since apps: AppRequests, signals: [NotificationSignal] = [], by side: ActingSide = .phone,
        dates: inout [UInt32: Date], at wall: Date, monitoring: Bool = false
    ) -> CentreChanges {
        CentreChanges.take(
            from: &centre, appsBefore: apps, signals: signals, by: side, deliveredDates: &dates, now: (wall, start), monitoring: monitoring)
    }

    @Test func aNotificationWithAClickOffersItAndAMonitoredOneOffersNothing() throws {
        func item(monitoring: Bool) throws -> MirrorItem {
            var centre = NotificationCentre()
            var dates: [UInt32: Date] = [:]
            var posted = call("Build finished")
            posted.actions = [.init(key: "default", label: "Open"), .init(key: "later", label: "Later")]
            _ = centre.notify(posted, sender: ":1.7", now: start)
            let taken = take(&centre, since: centre.apps, dates: &dates, at: wall, monitoring: monitoring)
            guard case .posted(let item, _, _)? = taken.changes.first else { throw ChangeMissing() }
            return item
        }
        let served = try item(monitoring: false)
        #expect(served.hasDefaultAction && served.category?.actions.map(\.identifier) == ["later"])
        let monitored = try item(monitoring: true)
        #expect(!monitored.hasDefaultAction && monitored.category == nil, "another server owns it: nothing can be carried out from here")
    }

    private struct ChangeMissing: Error {}

    @Test func postsReplacementsAndClosesInIdOrderKeepingTheFirstDeliveryDate() {
        var centre = NotificationCentre()
        var dates: [UInt32: Date] = [:]
        let first = centre.notify(call("Lunch"), sender: ":1.7", now: start).id
        let second = centre.notify(call("Train"), sender: ":1.7", now: start).id
        var taken = take(&centre, since: centre.apps, dates: &dates, at: wall)
        #expect(describe(taken.changes) == ["posted \(first) Lunch at \(wall.timeIntervalSince1970)", "posted \(second) Train at \(wall.timeIntervalSince1970)"])
        #expect(taken.apps == nil, "Notify does not change the apps' registrations")

        // A replacement an hour later keeps the first delivery's date; a close forgets it.
        _ = centre.notify(call("Lunch at one", replacing: first), sender: ":1.7", now: start)
        let signals = centre.close(second, reason: .closedByCall)
        taken = take(&centre, since: centre.apps, signals: signals, dates: &dates, at: wall + 3600)
        #expect(describe(taken.changes) == ["replaced \(first) Lunch at one at \(wall.timeIntervalSince1970)", "removed \(second) withdrawn"])
        #expect(dates.keys.sorted() == [first])

        // Taken once: the journal is empty afterwards.
        #expect(take(&centre, since: centre.apps, dates: &dates, at: wall).changes.isEmpty)
    }

    @Test func aRemovalsReasonSaysWhoActed() {
        let table: [(ActingSide, CloseReason?, Relay_V1_RemoveReason)] = [
            (.phone, .dismissedByUser, .dismissedOnPhone),
            (.wearable(dismissed: true), .dismissedByUser, .dismissedOnWearable),
            (.wearable(dismissed: false), .dismissedByUser, .acted),
            (.phone, .expired, .expired),
            (.wearable(dismissed: true), .expired, .expired),
            (.phone, .closedByCall, .withdrawn),
            (.wearable(dismissed: false), .undefined, .withdrawn),
            (.phone, nil, .withdrawn),
        ]
        for (side, reason, expected) in table {
            #expect(side.removeReason(reason) == expected, "\(side), \(String(describing: reason))")
        }
    }

    @Test func notificationsClosedSilentlyToStayWithinTheLimitsAreToldAsExpired() throws {
        var centre = NotificationCentre()
        var dates: [UInt32: Date] = [:]
        var ids: [UInt32] = []
        for index in 0..<ModelLimits.deliveredPerApp {
            let request = NotificationRequest(identifier: "n\(index)", content: NotificationContent(title: "n\(index)"))
            ids.append(try centre.post(request, appID: "org.example.Chat", sender: nil, now: wall).id)
        }
        _ = take(&centre, since: centre.apps, dates: &dates, at: wall)
        let request = NotificationRequest(identifier: "one more", content: NotificationContent(title: "one more"))
        let newest = try centre.post(request, appID: "org.example.Chat", sender: nil, now: wall).id
        // Relay's own API closes without a signal; the wearable still learns why it went.
        #expect(centre.takeEvictions().isEmpty)
        let taken = take(&centre, since: centre.apps, dates: &dates, at: wall)
        #expect(describe(taken.changes) == ["removed \(ids[0]) expired", "posted \(newest) one more at \(wall.timeIntervalSince1970)"])
    }

    @Test func aScheduledRequestIsAChangeOnlyWhenItsScheduleIsAndItsNextDateAloneIsNot() throws {
        var centre = NotificationCentre()
        var dates: [UInt32: Date] = [:]
        let app = "org.example.Water"
        let request = NotificationRequest(
            identifier: "drink", content: NotificationContent(title: "Drink"), trigger: .timeInterval(seconds: 60, repeats: true))
        var before = centre.apps
        _ = try centre.schedule(request, appID: app, sender: nil, now: wall, timeZone: utc)
        var taken = take(&centre, since: before, dates: &dates, at: wall)
        #expect(describe(taken.changes) == ["scheduled \(app)/drink"])
        #expect(taken.apps != nil, "the apps' registrations changed and are stored")

        // It fires: a notification, and the request moves to its next date, which the wearable
        // computes itself.
        before = centre.apps
        let fired = centre.fireDue(now: wall + 60)
        #expect(fired.count == 1)
        taken = take(&centre, since: before, dates: &dates, at: wall + 60)
        #expect(describe(taken.changes).count == 1 && describe(taken.changes)[0].hasPrefix("posted "))
        #expect(taken.apps != nil)

        before = centre.apps
        try centre.removePending(["drink"], appID: app)
        taken = take(&centre, since: before, dates: &dates, at: wall + 61)
        #expect(describe(taken.changes) == ["unscheduled \(app)/drink"])
    }

    @Test func withoutAMirrorTheJournalsAreEmptiedAndNothingIsRecorded() {
        var centre = NotificationCentre()
        var dates: [UInt32: Date] = [:]
        _ = centre.notify(call("Lunch"), sender: ":1.7", now: start)
        CentreChanges.discard(from: &centre)
        #expect(take(&centre, since: centre.apps, dates: &dates, at: wall).changes.isEmpty)
        #expect(dates.isEmpty)
    }
}
