import Foundation
import PhoneAgent
import RelayCore
import RelayFreedesktop
import RelayWire
import Testing

/// What the phone's centre does with a response from the wearable, alone and in monitor mode
/// (another notification server owns the freedesktop notifications): no link, no bus.
@Suite struct WearableResponseTests {
    let start = ContinuousClock.now

    private func notify(_ centre: inout NotificationCentre, actions: [(String, String)] = [], reply: Bool = false) -> UInt32 {
        var hints = NotificationHints()
        hints.replyPlaceholder = reply ? "Reply" : nil
        let call = PostedNotification(
            appName: "chat", replacesID: 0, summary: "Jane", body: "Lunch?",
            actions: actions.map { PostedNotification.Action(key: $0.0, label: $0.1) }, hints: hints, expireTimeout: -1)
        return centre.notify(call, sender: ":1.7", now: start).id
    }

    private func response(_ action: String, key: UInt64 = 7, text: String? = nil) -> Relay_V1_Response {
        var response = Relay_V1_Response()
        response.notificationKey = key
        response.action = action
        if let text { response.userText = text }
        return response
    }

    @Test func anActionAReplyAndADismissalAreAppliedAndAnnounced() {
        var centre = NotificationCentre()
        let id = notify(&centre, actions: [("yes", "Yes"), ("no", "No")])
        var outcome = centre.apply(response("yes"), to: id, monitoring: false)
        // An action closes a notification that is not resident, as a click on a desktop does.
        #expect(
            outcome == .applied(
                id: id, action: "yes", withReply: false,
                signals: [.actionInvoked(id: id, key: "yes"), .closed(id: id, reason: .dismissedByUser)]))
        #expect(outcome.isAnnounced && outcome.description == "from the wearable: yes on \(id)")

        let replying = notify(&centre, reply: true)
        outcome = centre.apply(response(FreedesktopMapping.inlineReplyKey, text: "On my way"), to: replying, monitoring: false)
        #expect(outcome.signals.contains(.replied(id: replying, text: "On my way")))
        #expect(outcome.description.hasSuffix("with a reply"))

        let dismissed = notify(&centre)
        outcome = centre.apply(response(ResponseAction.dismissIdentifier), to: dismissed, monitoring: false)
        #expect(outcome.signals == [.closed(id: dismissed, reason: .dismissedByUser)])
        #expect(centre.delivered[dismissed] == nil)
    }

    @Test func whatTheCentreRefusesAndWhatIsGoneAreSaidAndChangeNothing() {
        var centre = NotificationCentre()
        let id = notify(&centre, actions: [("yes", "Yes")])
        let refused = centre.apply(response("maybe"), to: id, monitoring: false)
        guard case .refused(id, "maybe", _) = refused else {
            Issue.record("an unknown action was not refused: \(refused)")
            return
        }
        #expect(refused.signals.isEmpty && !refused.isAnnounced)
        #expect(refused.description.hasPrefix("the wearable's maybe on \(id) was not applied: "))
        #expect(centre.delivered[id] != nil)

        let gone = centre.apply(response("yes", key: 42), to: nil, monitoring: false)
        #expect(gone == .gone(notificationKey: 42) && gone.signals.isEmpty)
    }

    @Test func inMonitorModeOnlyADismissalReachesAnotherServersNotification() throws {
        var centre = NotificationCentre()
        let id = notify(&centre, actions: [("yes", "Yes")])
        _ = centre.takeChanges()
        let action = centre.apply(response("yes"), to: id, monitoring: true)
        #expect(action == .notPossibleWhileMonitoring(id: id, action: "yes"))
        #expect(centre.delivered[id] != nil && centre.takeChanges().isEmpty, "the centre is unchanged")

        let dismissal = centre.apply(response(ResponseAction.dismissIdentifier), to: id, monitoring: true)
        #expect(dismissal == .closeAtMonitoredServer(id: id, signals: [.closed(id: id, reason: .dismissedByUser)]))
        #expect(!dismissal.isAnnounced, "the other server tells its app, not relay-phone")
        #expect(centre.delivered[id] == nil)

        // Relay's own API's notifications stay the centre's, monitor mode or not.
        let request = NotificationRequest(
            identifier: "invite", content: NotificationContent(title: "Invite", categoryIdentifier: "invite"))
        try centre.setCategories([NotificationCategory(identifier: "invite", actions: [NotificationAction(identifier: "accept", title: "Accept")])], appID: "org.example.Cal")
        let rich = try centre.post(request, appID: "org.example.Cal", sender: ":1.9", now: Date()).id
        let accepted = centre.apply(response("accept"), to: rich, monitoring: true)
        guard case .applied(rich, "accept", false, let signals) = accepted, accepted.isAnnounced, !signals.isEmpty else {
            Issue.record("a rich notification's action in monitor mode was not applied: \(accepted)")
            return
        }
    }
}
