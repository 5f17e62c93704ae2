import Foundation
import RelayCore
import RelayExamples
import Testing
import WearableUI

/// The panel blanks after the idle time and wakes for a key, an alert or a pairing code.
@Suite struct PanelBlankingTests {
    /// A tick `seconds` after the start, on both clocks.
    private func tick(_ machine: inout UIStateMachine, after seconds: Int) -> [UIAction] {
        machine.handle(.tick(now: referenceNow.addingTimeInterval(TimeInterval(seconds)), uptime: .seconds(seconds)))
    }

    @Test func theIdlePanelBlanksAndTheFirstPressOnlyWakesIt() throws {
        var machine = try makeMachine(blankAfter: 15)
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage), alert: false))
        #expect(!tick(&machine, after: 14).contains(.panel(awake: false)))
        #expect(tick(&machine, after: 15).contains(.panel(awake: false)))
        #expect(!machine.state.panelAwake)
        // Blanked once; later ticks ask nothing more.
        #expect(!tick(&machine, after: 30).contains(.panel(awake: false)))
        // Select on the face would open the list; on a dark panel it only wakes it.
        #expect(machine.press(.select) == [.panel(awake: true)])
        #expect(machine.state.screen == .idle && machine.state.panelAwake)
        machine.press(.select)
        #expect(machine.state.screen == .list(selection: 0))
        // The idle time counts from the last press.
        #expect(!tick(&machine, after: 44).contains(.panel(awake: false)))
        #expect(tick(&machine, after: 45).contains(.panel(awake: false)))
    }

    @Test func anAlertOrAPairingCodeWakesThePanel() throws {
        var machine = try makeMachine(blankAfter: 10)
        _ = tick(&machine, after: 10)
        #expect(!machine.state.panelAwake)
        // A notification that does not alert leaves it dark.
        #expect(!machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage), alert: false)).contains(.panel(awake: true)))
        let actions = machine.feed(.upsert(delivered(SeedExamples.meetingInvite), alert: true))
        #expect(actions.starts(with: [.panel(awake: true), .haptic(.timeSensitive)]), "\(actions)")
        _ = tick(&machine, after: 20)
        #expect(!machine.state.panelAwake)
        #expect(machine.feed(.pairingCode("123456")).contains(.panel(awake: true)))
        // Never dark while a code waits to be compared.
        #expect(!tick(&machine, after: 600).contains(.panel(awake: false)))
    }

    @Test func idleTimeIsUptimeNotTheWallClock() throws {
        var never = try makeMachine()
        #expect(!tick(&never, after: 86_400).contains(.panel(awake: false)))
        var machine = try makeMachine(blankAfter: 15)
        // The wall clock jumps an hour ahead (the phone's clock taken up) and back: no idle time.
        #expect(!machine.handle(.tick(now: referenceNow.addingTimeInterval(3_600), uptime: .seconds(1))).contains(.panel(awake: false)))
        #expect(!machine.handle(.tick(now: referenceNow.addingTimeInterval(-3_600), uptime: .seconds(14))).contains(.panel(awake: false)))
        #expect(machine.handle(.tick(now: referenceNow.addingTimeInterval(-3_599), uptime: .seconds(15))).contains(.panel(awake: false)))
    }

    @Test func aPanelThatCannotBlankStaysOnAndKeysAct() throws {
        var machine = try makeMachine(blankAfter: 5)
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage), alert: false))
        #expect(tick(&machine, after: 5).contains(.panel(awake: false)))
        machine.feed(.panelCannotBlank)
        #expect(machine.state.panelAwake)
        machine.press(.select)
        #expect(machine.state.screen == .list(selection: 0))
        #expect(!tick(&machine, after: 60).contains(.panel(awake: false)))
    }
}
