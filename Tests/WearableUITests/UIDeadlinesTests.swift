import Foundation
import RelayCore
import RelayExamples
import Testing
import WearableUI

/// The instants the wearable's screen loop sleeps until: a tick there changes what is shown,
/// and a tick in between changes nothing, so no tick is needed in between.
@Suite struct UIDeadlinesTests {
    @Test func theFaceWakesAtTheNextMinuteAndNoSooner() throws {
        var machine = try makeMachine()
        let now = referenceNow.addingTimeInterval(20)
        machine.feed(.tick(now: now, uptime: .seconds(20)))
        let minute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60)
        #expect(machine.deadlines == UIDeadlines(wallClock: minute, uptime: nil))
        #expect(machine.deadlines.wait(now: now, uptime: .seconds(20)) == .milliseconds(Int64(minute.timeIntervalSince(now) * 1000)))
        let before = machine.screenModel
        machine.feed(.tick(now: minute.addingTimeInterval(-0.001), uptime: .seconds(59)))
        #expect(machine.screenModel == before, "nothing changes before the deadline")
        machine.feed(.tick(now: minute, uptime: .seconds(60)))
        #expect(machine.screenModel != before, "the face shows the new minute at the deadline")
    }

    @Test func aShortLookEndsAtItsDeadline() throws {
        var machine = try makeMachine()
        machine.feed(.tick(now: referenceNow, uptime: .seconds(5)))
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage, app: "Messages"), alert: true))
        let end = try #require(machine.deadlines.uptime)
        #expect(end == .seconds(13), "shown at 5 s of uptime for 8 s")
        machine.feed(.tick(now: referenceNow, uptime: end - .milliseconds(1)))
        guard case .shortLook = machine.screenModel else { Issue.record("ended before its deadline"); return }
        machine.feed(.tick(now: referenceNow, uptime: end))
        guard case .idle = machine.screenModel else { Issue.record("still up at its deadline"); return }
    }

    @Test func aBlankedPanelHasNoDeadlineAtAll() throws {
        var machine = try makeMachine(blankAfter: 15)
        machine.feed(.tick(now: referenceNow, uptime: .seconds(1)))
        #expect(machine.deadlines.uptime == .seconds(15), "idle since start-up, blanked at 15 s")
        let actions = machine.feed(.tick(now: referenceNow.addingTimeInterval(14), uptime: .seconds(15)))
        #expect(actions.contains(.panel(awake: false)))
        #expect(machine.deadlines == UIDeadlines(wallClock: nil, uptime: nil), "asleep until something happens")
        #expect(machine.deadlines.wait(now: referenceNow, uptime: .seconds(15)) == nil)
    }
}
