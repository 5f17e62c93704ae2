import Foundation
import RelayCore
import Testing
import WearableAgent
import WearableUI

/// The wrist decides (Docs/POLICY.md): through the real link, the wearable's policy makes what
/// the phone asked to alert arrive silently, and tells the phone why.
@Suite struct WearableAlertPolicyTests {
    @Test(.timeLimit(.minutes(1))) func aSecondAlertWithinTheGapArrivesSilentlyAndThePhoneHearsWhy() async throws {
        try await AgentLinkHarness.with(alertPolicy: AlertPolicy(minimumGap: 60)) { harness throws in
            #expect(try await harness.startPaired())
            try harness.owner.post(1, title: "First")
            try harness.owner.post(2, title: "Second")
            #expect(await harness.screen.wait { PairAndMirrorTests.shownTitles($0)["Second"] != nil })
            let shown = PairAndMirrorTests.shownTitles(harness.screen.elements)
            #expect(shown["First"] == [true] && shown["Second"] == [false], "\(shown)")
            #expect(await harness.owner.alerted.wait { $0.count == 2 })
            let second = harness.owner.alerted.elements.first { !$0.alerted }
            #expect(second?.reason.hasPrefix("another alert ") == true && second?.reason.hasSuffix(" s ago; at least 60 s between vibrations") == true,
                    "\(String(describing: second?.reason))")
        }
    }

    @Test(.timeLimit(.minutes(1))) func inQuietHoursOnlyTimeSensitiveAndCriticalAlert() async throws {
        // All day, every day: the period is on whenever the test runs.
        let always = QuietHours(start: 0, end: 0, timeZone: .gmt)
        try await AgentLinkHarness.with(alertPolicy: AlertPolicy(quietHours: always, minimumGap: 0)) { harness throws in
            #expect(try await harness.startPaired())
            try harness.owner.post(1, title: "Newsletter")
            try harness.owner.post(2, title: "Taxi outside", level: .timeSensitive)
            try harness.owner.post(3, title: "Smoke alarm", level: .critical)
            #expect(await harness.owner.alerted.wait { $0.count == 3 })
            let shown = PairAndMirrorTests.shownTitles(harness.screen.elements)
            #expect(shown["Newsletter"] == [false] && shown["Taxi outside"] == [true] && shown["Smoke alarm"] == [true], "\(shown)")
            let silent = harness.owner.alerted.elements.first { !$0.alerted }
            #expect(silent?.reason.hasPrefix("do not disturb (quiet hours) until ") == true, "\(String(describing: silent?.reason))")
        }
    }
}
