import Foundation
import RelayCore
import RelayExamples
import Testing
import WearableUI

/// The state machine, driven by events alone: no display, no clock.
@Suite struct StateMachineTests {
    @Test func anAlertingNotificationVibratesAndShowsTheShortLook() throws {
        var machine = try makeMachine()
        let actions = machine.handle(.upsert(delivered(SeedExamples.meetingInvite, app: "Calendar"), alert: true))
        #expect(actions == [.haptic(.timeSensitive), .render])
        #expect(machine.state.screen == .shortLook(identifier: "meeting-1", shownAt: .zero))
        #expect(machine.state.unread == ["meeting-1"])
    }

    @Test func deliveryWithoutAlertOnlyUpdatesTheUnreadCount() throws {
        var machine = try makeMachine()
        #expect(machine.handle(.upsert(delivered(SeedExamples.cyrillicMessage), alert: false)) == [.render])
        #expect(machine.state.screen == .idle)
        // Passive notifications never interrupt, even when allowed to alert.
        var passive = SeedExamples.emojiMessage
        passive.content.interruptionLevel = .passive
        #expect(machine.handle(.upsert(delivered(passive), alert: true)) == [.render])
        #expect(machine.state.screen == .idle)
    }

    /// A catch-up arrives as one batch: each notification's own actions, and one render.
    @Test func aBatchOfEventsRendersOnceAtItsEnd() throws {
        var machine = try makeMachine()
        machine.press(.select)  // the list, where every notification makes a row
        let batch = (0..<2_000).map { index -> UIEvent in
            var request = SeedExamples.cyrillicMessage
            request.identifier = "n\(index)"
            return .upsert(delivered(request), alert: false)
        }
        #expect(machine.handle(batch) == [.render])
        #expect(machine.state.notifications.count == 2_000)
        // A batch that changes nothing on screen in the end renders nothing.
        var passing = SeedExamples.cyrillicMessage
        passing.identifier = "passing"
        #expect(machine.handle([.upsert(delivered(passing), alert: false), .remove(identifier: "passing")]).isEmpty)
    }

    @Test func anUpdateInPlaceNeverAlertsAgain() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.meetingInvite), alert: true))
        machine.press(.back)
        var update = SeedExamples.meetingInvite
        update.content.body = "Moved to 15:00"
        let actions = machine.handle(.upsert(delivered(update), alert: true))
        #expect(!actions.contains(.haptic(.timeSensitive)))
        #expect(machine.state.screen == .idle)
        #expect(machine.state.notifications.map(\.content.body) == ["Moved to 15:00"])
    }

    @Test func silentContentIsNeverShown() throws {
        var machine = try makeMachine()
        let silent = NotificationRequest(identifier: "background", content: NotificationContent(userInfo: ["sync": .bool(true)]))
        #expect(machine.handle(.upsert(delivered(silent), alert: true)) == [])
        #expect(machine.state.notifications.isEmpty)
    }

    @Test func removingTheShownNotificationReturnsToTheScreenBeneath() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage, minutesAgo: 5), alert: false))
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: false))
        machine.press(.select, .select)  // list, then the newest (New Video) long look
        #expect(machine.state.screen == .longLook(LongLookPosition(identifier: "new-video-1")))
        #expect(machine.handle(.remove(identifier: "new-video-1")).contains(.render))
        #expect(machine.state.screen == .list(selection: 0))
        machine.feed(.remove(identifier: "cyrillic-1"))
        #expect(machine.state.screen == .idle)
        #expect(machine.state.backStack.isEmpty)
    }

    @Test func removingANotificationUnderTheShortLookKeepsTheShortLook() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage), alert: false))
        machine.feed(.upsert(delivered(SeedExamples.emojiMessage), alert: true))
        machine.feed(.remove(identifier: "cyrillic-1"))
        #expect(machine.state.screen == .shortLook(identifier: "emoji-1", shownAt: .zero))
    }

    @Test func theShortLookGoesAwayAfterItsTime() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.emojiMessage), alert: true))
        #expect(machine.handle(.tick(now: referenceNow.addingTimeInterval(5), uptime: .seconds(5))) == [])
        #expect(machine.handle(.tick(now: referenceNow.addingTimeInterval(8), uptime: .seconds(8))) == [.render])
        #expect(machine.state.screen == .idle)
    }

    @Test func aWallClockSteppedEitherWayNeitherEndsNorKeepsTheShortLook() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.emojiMessage), alert: true))
        // The clock corrected to the phone's, an hour forward, then NTP a year back: the look
        // stays its 8 s of uptime, no less and no more.
        machine.feed(.tick(now: referenceNow.addingTimeInterval(3_600), uptime: .seconds(1)))
        #expect(machine.state.screen == .shortLook(identifier: "emoji-1", shownAt: .zero))
        machine.feed(.tick(now: referenceNow.addingTimeInterval(-86_400 * 365), uptime: .seconds(7)))
        #expect(machine.state.screen == .shortLook(identifier: "emoji-1", shownAt: .zero))
        machine.feed(.tick(now: referenceNow.addingTimeInterval(-86_400 * 365 + 1), uptime: .seconds(8)))
        #expect(machine.state.screen == .idle)
    }

    @Test func ticksRedrawOnlyWhenTheMinuteChanges() throws {
        var machine = try makeMachine()
        #expect(machine.handle(.tick(now: referenceNow.addingTimeInterval(30))) == [])
        #expect(machine.handle(.tick(now: referenceNow.addingTimeInterval(60))) == [.render])
        #expect(machine.handle(.link(.connected)) == [])
        #expect(machine.handle(.link(.outOfRange)) == [.render])
    }

    @Test func downAndSelectOnTheNewVideoLongLookLikesIt() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        machine.press(.select)
        let actions = machine.press(.down, .select)
        #expect(responses(actions) == [NotificationResponse(
            notificationIdentifier: "new-video-1", action: .custom("like-action"), date: referenceNow)])
        #expect(machine.state.notifications.isEmpty)
        #expect(machine.state.screen == .idle)
    }

    @Test func openOnPhoneFollowsTheAppsButtonsAndIsTheDefaultAction() throws {
        var machine = try makeMachine()
        var video = delivered(try SeedExamples.newVideoRequest())
        let buttons = machine.state.buttons(of: video)
        #expect(!buttons.contains(.openOnPhone), "no default action the phone can carry out: nothing to open")
        video.opensOnPhone = true
        #expect(machine.state.buttons(of: video) == Array(buttons.dropLast(3)) + [.openOnPhone, .clear, .dismiss, .mute])
        machine.feed(.upsert(video, alert: true))
        machine.press(.select, .select)
        for _ in 0..<(buttons.count - 3) { machine.press(.down) }
        let actions = machine.press(.select)
        #expect(responses(actions) == [NotificationResponse(notificationIdentifier: "new-video-1", action: .default, date: referenceNow)])
        #expect(machine.state.notifications.isEmpty, "a click closes it on the phone, as acting on it does here")
    }

    @Test func aTextReplyIsChosenFromTheSuggestions() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        machine.press(.select, .down, .down, .select)
        #expect(machine.state.screen == .textReply(identifier: "new-video-1", action: "comment-action", selection: 0))
        machine.press(.up, .down, .down, .down, .down)
        #expect(machine.state.screen == .textReply(identifier: "new-video-1", action: "comment-action", selection: 2))
        machine.press(.up)
        machine.feed(.tick(now: referenceNow.addingTimeInterval(42)))
        let reply = responses(machine.press(.select))
        #expect(reply == [NotificationResponse(
            notificationIdentifier: "new-video-1", action: .custom("comment-action"), userText: "Looks fun 😎",
            date: referenceNow.addingTimeInterval(42))])
    }

    @Test func backFromATextReplyReturnsToTheLongLook() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        machine.press(.select, .down, .down, .select, .back)
        guard case .longLook(let position) = machine.state.screen else {
            Issue.record("expected the long look, got \(machine.state.screen)")
            return
        }
        #expect(position.focus == 1)
    }

    @Test func dismissingReportsADismissal() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage), alert: true))
        machine.press(.select)
        let actions = machine.press(.down, .down, .select)
        #expect(responses(actions).map(\.action) == [.dismiss])
        #expect(machine.state.notifications.isEmpty)
    }

    @Test func clearingTakesItOffTheWristAndTellsThePhoneNothing() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage), alert: true))
        machine.press(.select)
        // The message has no buttons of its own: Clear is the first.
        let actions = machine.press(.down, .select)
        #expect(actions.contains(.clear(identifier: SeedExamples.cyrillicMessage.identifier)))
        #expect(responses(actions).isEmpty)
        #expect(machine.state.notifications.isEmpty)
    }

    @Test func scrollingStopsAtBothEndsOfALongBody() throws {
        var machine = try makeMachine()
        let notification = delivered(SeedExamples.longMessage)
        machine.feed(.upsert(notification, alert: true))
        machine.press(.select)
        let geometry = try machine.layout.longLookGeometry(notification, state: machine.state)
        #expect(geometry.maxScroll > geometry.viewportHeight * 3)
        machine.press(.up)
        #expect(machine.state.screen == .longLook(LongLookPosition(identifier: "long-1", scroll: 0)))

        var scrolls: [Int] = []
        for _ in 0..<40 {
            machine.press(.down)
            guard case .longLook(let position) = machine.state.screen else { break }
            scrolls.append(position.scroll)
        }
        // Scrolling only ever moves forward, in steps no longer than one page, until the first
        // button (Clear: the message has no category) is in view and takes the focus; then the
        // focus moves to the last (Mute…) and stops.
        #expect(zip(scrolls, scrolls.dropFirst()).allSatisfy { $0 <= $1 && $1 - $0 <= geometry.viewportHeight })
        let end = try #require(scrolls.last)
        #expect(end <= geometry.maxScroll && geometry.isFullyVisible(button: 2, scroll: end))
        #expect(machine.state.screen == .longLook(LongLookPosition(identifier: "long-1", scroll: end, focus: 2)))

        for _ in 0..<40 { machine.press(.up) }
        #expect(machine.state.screen == .longLook(LongLookPosition(identifier: "long-1", scroll: 0)))
    }

    @Test func backNavigatesFromTheLongLookThroughTheThreadToTheWatchFace() throws {
        var machine = try makeMachine()
        for (index, request) in SeedExamples.workThread.enumerated() {
            machine.feed(.upsert(delivered(request, app: "Chat", minutesAgo: Double(10 - index)), alert: false))
        }
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage, app: "Messages", minutesAgo: 30), alert: false))
        machine.press(.select)
        #expect(machine.state.screen == .list(selection: 0))
        machine.press(.down, .down, .down)
        #expect(machine.state.screen == .list(selection: 1))
        machine.press(.up, .select)
        #expect(machine.state.screen == .thread(identifier: "work", selection: 0))
        machine.press(.down, .select)
        #expect(machine.state.screen == .longLook(LongLookPosition(identifier: "work-beth")))
        #expect(!machine.state.unread.contains("work-beth"))
        machine.press(.back)
        #expect(machine.state.screen == .thread(identifier: "work", selection: 1))
        machine.press(.back)
        #expect(machine.state.screen == .list(selection: 0))
        machine.press(.back)
        #expect(machine.state.screen == .idle)
        #expect(machine.press(.back) == [])
    }

    @Test func hidingPreviewsRedrawsTheListWithPlaceholders() throws {
        var machine = try makeMachine()
        for request in SeedExamples.thaiVacationThread.reversed() { machine.feed(.upsert(delivered(request), alert: false)) }
        machine.press(.select)
        #expect(machine.handle(.previewsHidden(true)) == [.render])
        guard case .list(let list) = machine.screenModel else {
            Issue.record("expected the list")
            return
        }
        #expect(list.rows.map(\.title) == ["Thai Vacation"])
        #expect(list.rows.map(\.detail) == ["1 Image & 1 Comment"])
        #expect(list.rows.map(\.count) == [2])
    }

    @Test func pairingIsConfirmedOrRejectedOnce() throws {
        var machine = try makeMachine()
        machine.feed(.pairingCode("482915"))
        machine.press(.down)
        #expect(machine.press(.select) == [.confirmPairing(false, code: "482915"), .render])
        #expect(machine.press(.select) == [])
        #expect(machine.handle(.pairingFinished) == [.render])
        #expect(machine.state.screen == .idle)

        machine.feed(.pairingCode("123456"))
        #expect(machine.press(.select) == [.confirmPairing(true, code: "123456"), .render])
        machine.feed(.pairingCode("654321"))
        #expect(machine.press(.back) == [.confirmPairing(false, code: "654321"), .render], "the answer names the code on the screen")
    }
}

/// Do not disturb and the mutes on the wrist: the control screen from the watch face, the
/// long look's mute menu.
@Suite struct WristPreferencesTests {
    @Test func upOnTheWatchFaceOpensTheControlsWhoseToggleAndUnmuteRowsAskTheAgent() throws {
        var machine = try makeMachine()
        machine.feed(.alertPolicy(AlertPolicy(mutes: [Mute(.app("Mail"))])))
        machine.press(.up)
        #expect(machine.state.screen == .controls(selection: 0))
        #expect(machine.state.controlRows.map(\.title) == ["Do not disturb: off", "Unmute Mail"])
        machine.press(.down)
        #expect(machine.press(.select) == [.unmute(.app("Mail"))])
        machine.feed(.alertPolicy(AlertPolicy(doNotDisturb: DoNotDisturb(source: .manual))))
        // The mute went meanwhile: the selection comes back within the rows.
        #expect(machine.state.screen == .controls(selection: 0))
        #expect(machine.state.controlRows.map(\.title) == ["Do not disturb: on"])
        #expect(machine.press(.select) == [.setDoNotDisturb(false)])
        machine.feed(.alertPolicy(AlertPolicy()))
        #expect(machine.press(.select) == [.setDoNotDisturb(true)])
        machine.press(.back)
        #expect(machine.state.screen == .idle)
    }

    @Test func theLongLooksMuteMenuMutesTheAppForAWhileOrTheThread() throws {
        var machine = try makeMachine()
        var threaded = SeedExamples.cyrillicMessage
        threaded.content.threadIdentifier = "4"
        machine.feed(.upsert(delivered(threaded, app: "Chat"), alert: false))
        machine.press(.down, .select)
        let identifier = threaded.identifier
        let notification = try #require(machine.state.notification(identifier))
        let buttons = machine.state.buttons(of: notification)
        #expect(buttons.last == .mute)
        // Select jumps to the buttons; Down to the last, Mute…; Select opens the menu.
        machine.press(.select)
        for _ in 1..<buttons.count { machine.press(.down) }
        machine.press(.select)
        #expect(machine.state.screen == .muteMenu(identifier: identifier, selection: 0))
        #expect(machine.state.muteChoices(of: notification) == [.app(.hour), .app(.today), .app(.always), .thread])
        machine.press(.down)
        #expect(machine.press(.select) == [.mute(.app("Chat"), .today), .render])
        // Back on the long look: the notification stays, only what comes next is silenced.
        guard case .longLook(let position) = machine.state.screen else {
            Issue.record("not back on the long look: \(machine.state.screen)")
            return
        }
        #expect(position.identifier == identifier)
        machine.press(.select)
        machine.press(.down, .down, .down)
        #expect(machine.press(.select) == [.mute(.thread(app: "Chat", thread: "4"), .always), .render])
    }
}

/// A burst in one thread: one alert, and the short look counts the rest.
@Suite struct ThreadBurstScreenTests {
    @Test func theRestOfABurstMovesTheShortLookOnAndIsCounted() throws {
        var machine = try makeMachine()
        func message(_ id: String, thread: String = "4") -> WearableNotification {
            var request = SeedExamples.cyrillicMessage
            request.identifier = id
            request.content.threadIdentifier = thread
            return delivered(request, app: "Chat")
        }
        #expect(machine.feed(.upsert(message("m1"), alert: true)).contains(.haptic(.active)))
        #expect(machine.feed(.upsert(message("m2"), alert: false)) == [.render])
        #expect(machine.feed(.upsert(message("m3"), alert: false)) == [.render])
        #expect(machine.state.screen == .shortLook(identifier: "m3", shownAt: .zero) && machine.state.shortLookMore == 2)
        guard case .shortLook(let look) = ScreenModel(state: machine.state, configuration: machine.configuration) else {
            Issue.record("no short look")
            return
        }
        #expect(look.more == 2)
        try GoldenImage.check("short-look-burst", machine)
        // One of the thread that alerts (critical, a rule's) shows as any short look, afresh.
        machine.feed(.tick(now: referenceNow, uptime: .seconds(2)))
        #expect(machine.feed(.upsert(message("m4"), alert: true)).contains(.haptic(.active)))
        #expect(machine.state.screen == .shortLook(identifier: "m4", shownAt: .seconds(2)) && machine.state.shortLookMore == 0)
        // Another thread's silent message does not take the screen; a new alert starts afresh.
        machine.feed(.upsert(message("o1", thread: "9"), alert: false))
        #expect(machine.state.screen == .shortLook(identifier: "m4", shownAt: .seconds(2)))
        machine.feed(.upsert(message("o2", thread: "9"), alert: true))
        #expect(machine.state.screen == .shortLook(identifier: "o2", shownAt: .seconds(2)) && machine.state.shortLookMore == 0)
    }
}
