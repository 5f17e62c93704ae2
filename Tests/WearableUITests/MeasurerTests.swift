import Foundation
import RelayCore
import RelayExamples
import Testing
import WearableUI

/// The state machine takes the long look's figures from its measurer alone: with fixed figures
/// and no fonts, Down scrolls to the measured line tops, stops at the measured end, and moves to
/// the button once the measured button is in view.
@Suite struct MeasurerTests {
    /// A long look 400 pixels tall in a 100-pixel viewport, a line every 40 pixels, and one
    /// button (Dismiss: the message has no category) at 350–380.
    final class FixedMeasurer: LongLookMeasuring {
        let geometry = LongLookGeometry(
            viewportHeight: 100, contentHeight: 400, step: 90, buttons: [350..<380], image: nil,
            anchors: Array(stride(from: 0, through: 320, by: 40)) + [350])
        private(set) var measured: [String] = []

        func longLookGeometry(_ notification: WearableNotification, state: UIState) -> LongLookGeometry {
            measured.append(notification.identifier)
            return geometry
        }
    }

    @Test func theLongLookFollowsTheMeasurersFigures() throws {
        let measurer = FixedMeasurer()
        let state = UIState(now: referenceNow, link: .connected)
        var machine = UIStateMachine(state: state, configuration: UIConfiguration(timeZone: try pacificTime()), measurer: measurer)
        machine.feed(.upsert(delivered(SeedExamples.longMessage), alert: true))
        machine.press(.select)
        #expect(machine.state.screen == .longLook(LongLookPosition(identifier: "long-1")))

        var positions: [LongLookPosition] = []
        for _ in 0..<6 {
            machine.press(.down)
            guard case .longLook(let position) = machine.state.screen else { break }
            positions.append(position)
        }
        // Steps of at most 90 that stop on a line's top (80, 160, 240), then the end (300),
        // where the buttons are in view and take the focus, Dismiss then Mute….
        #expect(positions.map(\.scroll) == [80, 160, 240, 300, 300, 300])
        #expect(positions.map(\.focus) == [nil, nil, nil, nil, 0, 1])
        #expect(measurer.measured.allSatisfy { $0 == "long-1" } && !measurer.measured.isEmpty)
    }
}
