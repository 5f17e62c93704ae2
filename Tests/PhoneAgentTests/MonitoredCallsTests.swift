import PhoneAgent
import RelayFreedesktop
import Testing

/// Monitor mode's pairing of calls with the server's answers, and the centre keeping a
/// notification under the id another server gave it: values only, no bus.
@Suite struct MonitoredCallsTests {
    private func notify(_ summary: String, replacing id: UInt32 = 0) -> MonitoredCalls.Call {
        .notify(PostedNotification(appName: "chat", replacesID: id, summary: summary))
    }

    @Test func repliesOutOfOrderFindTheirOwnCalls() {
        var calls = MonitoredCalls()
        calls.called(notify("first"), serial: 7, caller: ":1.4")
        calls.called(notify("second"), serial: 8, caller: ":1.4")
        calls.called(.close(id: 3), serial: 9, caller: ":1.4")
        #expect(calls.count == 3)

        let third = calls.answered(replySerial: 9, caller: ":1.4")
        let first = calls.answered(replySerial: 7, caller: ":1.4")
        let second = calls.answered(replySerial: 8, caller: ":1.4")
        #expect(third?.call == .close(id: 3))
        #expect(first?.call == notify("first") && first?.serial == 7 && first?.caller == ":1.4")
        #expect(second?.call == notify("second"))
        #expect(calls.count == 0)
    }

    @Test func theSameSerialFromTwoCallersIsTwoCalls() {
        var calls = MonitoredCalls()
        calls.called(notify("from a"), serial: 5, caller: ":1.4")
        calls.called(notify("from b"), serial: 5, caller: ":1.9")
        #expect(calls.count == 2)
        let fromB = calls.answered(replySerial: 5, caller: ":1.9")
        let fromA = calls.answered(replySerial: 5, caller: ":1.4")
        #expect(fromB?.call == notify("from b") && fromA?.call == notify("from a"))
    }

    @Test func unknownSerialsAndRepeatedRepliesFindNothing() {
        var calls = MonitoredCalls()
        calls.called(notify("one"), serial: 2, caller: ":1.4")
        // A reply to another method, to another caller, then the real one twice.
        let otherSerial = calls.answered(replySerial: 3, caller: ":1.4")
        let otherCaller = calls.answered(replySerial: 2, caller: ":1.5")
        let answer = calls.answered(replySerial: 2, caller: ":1.4")
        let repeated = calls.answered(replySerial: 2, caller: ":1.4")
        #expect(otherSerial == nil && otherCaller == nil)
        #expect(answer?.call == notify("one"))
        #expect(repeated == nil)
    }

    @Test func anErrorReplyEndsTheWaitAndLeavesTheOthers() {
        // The monitor hands error replies over in the same way, then records nothing.
        var calls = MonitoredCalls()
        calls.called(notify("refused"), serial: 11, caller: ":1.4")
        calls.called(notify("kept"), serial: 12, caller: ":1.4")
        let refused = calls.answered(replySerial: 11, caller: ":1.4")
        #expect(refused?.call == notify("refused") && calls.count == 1)
        let kept = calls.answered(replySerial: 12, caller: ":1.4")
        #expect(kept?.call == notify("kept"))
    }

    @Test func unansweredCallsAreDroppedOldestFirstAtCapacity() {
        var calls = MonitoredCalls(capacity: 3)
        var dropped: [UInt32?] = []
        for serial in UInt32(1)...4 { dropped.append(calls.called(notify("n\(serial)"), serial: serial, caller: ":1.4")?.serial) }
        #expect(dropped == [nil, nil, nil, 1])
        #expect(calls.count == 3)
        let first = calls.answered(replySerial: 1, caller: ":1.4")
        #expect(first == nil)

        // A serial still waiting is replaced, dropping nothing, and counts as new.
        let replacing = calls.called(notify("n2 again"), serial: 2, caller: ":1.4")
        #expect(replacing == nil)
        let fifth = calls.called(notify("n5"), serial: 5, caller: ":1.4")
        #expect(fifth?.serial == 3)
        let second = calls.answered(replySerial: 2, caller: ":1.4")
        #expect(second?.call == notify("n2 again"))
        let forgotten = calls.removeAll()
        #expect(forgotten == 2 && calls.count == 0)
    }

    @Test func theCentreKeepsTheServersIDs() {
        let now = ContinuousClock.now
        var centre = NotificationCentre()
        let first = centre.record(PostedNotification(appName: "chat", summary: "Hi"), id: 41, sender: ":1.4", now: now)
        #expect(first?.id == 41 && first?.replaced == false)
        let again = centre.record(PostedNotification(appName: "chat", replacesID: 41, summary: "Hi again"), id: 41, sender: ":1.5", now: now)
        #expect(again?.replaced == true)
        #expect(centre.list.map(\.id) == [41])
        #expect(centre.delivered[41]?.content.title == "Hi again" && centre.delivered[41]?.sender == ":1.5")
        // The centre's own ids are untouched: its next notification still starts at 1.
        let own = centre.notify(PostedNotification(appName: "chat", summary: "Own"), sender: nil, now: now)
        #expect(own.id == 1)
        let closed = centre.close(41, reason: .expired)
        #expect(closed == [.closed(id: 41, reason: .expired)])
        #expect(centre.list.map(\.id) == [1])
    }

    @Test func anIDClosedWhileItsNotifyWaitsIsNotKeptFromTheReply() throws {
        var calls = MonitoredCalls()
        let notify = MonitoredCalls.Call.notify(PostedNotification(appName: "app", summary: "s"))
        // With no Notify waiting, a close cannot be about a reply to come.
        calls.closedBeforeAnswer(7)
        calls.called(notify, serial: 1, caller: ":1.4")
        calls.closedBeforeAnswer(5)
        let firstAnswer = calls.answered(replySerial: 1, caller: ":1.4")
        let first = try #require(firstAnswer)
        let sevenForFirst = calls.wasClosed(7, whileAnswering: first)
        let fiveForFirst = calls.wasClosed(5, whileAnswering: first)
        let fiveAgain = calls.wasClosed(5, whileAnswering: first)
        #expect(!sevenForFirst && fiveForFirst && !fiveAgain)

        // A close between two waiting calls is about the earlier only: the later one, started
        // after it (a replaces_id naming the closed notification), is kept.
        calls.called(notify, serial: 2, caller: ":1.4")
        calls.closedBeforeAnswer(9)
        calls.called(notify, serial: 3, caller: ":1.5")
        let laterAnswer = calls.answered(replySerial: 3, caller: ":1.5")
        let later = try #require(laterAnswer)
        let nineForLater = calls.wasClosed(9, whileAnswering: later)
        #expect(!nineForLater)
        let earlierAnswer = calls.answered(replySerial: 2, caller: ":1.4")
        let earlier = try #require(earlierAnswer)
        let nineForEarlier = calls.wasClosed(9, whileAnswering: earlier)
        #expect(nineForEarlier)

        // Only the newest are remembered, and a server that went away takes them with it.
        calls.called(notify, serial: 4, caller: ":1.4")
        for id in 1...UInt32(MonitoredCalls.closedEarlyCapacity + 1) { calls.closedBeforeAnswer(id) }
        let waitingAnswer = calls.answered(replySerial: 4, caller: ":1.4")
        let waiting = try #require(waitingAnswer)
        let oldest = calls.wasClosed(1, whileAnswering: waiting)
        let newest = calls.wasClosed(UInt32(MonitoredCalls.closedEarlyCapacity + 1), whileAnswering: waiting)
        #expect(!oldest && newest)
        calls.called(notify, serial: 5, caller: ":1.4")
        calls.closedBeforeAnswer(2)
        calls.removeAll()
        let afterRemoval = calls.wasClosed(2, whileAnswering: waiting)
        #expect(!afterRemoval)
    }
}
