import Foundation
import RelayCore
import RelayExamples
import Testing
import WearableUI

/// The screens at 320×240, the second panel Hardware/README.md names (an ILI9341 2.8"): the
/// same layout scaled to a wider, landscape panel, compared with their golden PNGs.
@Suite struct GoldenScreens320Tests {
    private func machine() throws -> UIStateMachine { try makeMachine(width: 320, height: 240) }

    @Test func idleFaceAndShortLook() throws {
        var machine = try machine()
        machine.handle([
            .upsert(delivered(SeedExamples.cyrillicMessage, app: "Messages"), alert: false),
            .upsert(delivered(SeedExamples.emojiMessage, app: "Messages"), alert: false),
        ])
        try GoldenImage.check("320x240-idle-connected", machine)
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        try GoldenImage.check("320x240-short-look", machine)
    }

    @Test func longLookWithActionsAndTheList() throws {
        var machine = try machine()
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest(), minutesAgo: 2), alert: true))
        machine.press(.select)
        try GoldenImage.check("320x240-long-look-new-video", machine)
        machine.press(.back, .back)
        for (index, request) in SeedExamples.workThread.enumerated() {
            machine.feed(.upsert(delivered(request, app: "Chat", minutesAgo: Double(50 - index)), alert: false))
        }
        machine.feed(.upsert(delivered(SeedExamples.thaiVacationComment, minutesAgo: 20), alert: false))
        machine.press(.select)
        try GoldenImage.check("320x240-list-by-thread", machine)
    }

    @Test func theImageAndThePairingCode() throws {
        var machine = try machine()
        machine.feed(.upsert(delivered(thaiVacationOnTheWearable(), minutesAgo: 3), alert: true))
        machine.press(.select)
        let sunset = try sunsetImage()
        machine.feed(.attachmentStored(url: sunsetURL, width: sunset.width, height: sunset.height))
        try GoldenImage.check("320x240-long-look-image", machine, images: TestImageSource([sunsetURL: sunset]))
        var pairing = try self.machine()
        pairing.feed(.pairingCode("482915"))
        try GoldenImage.check("320x240-pairing", pairing)
    }
}
