import Foundation
import RelayCore
import RelayExamples
import Testing
import WearableUI

/// Every screen, rendered from the seed examples at 240×240 and compared with its golden PNG.
@Suite struct GoldenScreenTests {
    /// The list's seed notifications: the "Thai Vacation" and "Work" threads and the new video.
    private func seedList(_ machine: inout UIStateMachine) throws {
        let video = try SeedExamples.newVideoRequest()
        machine.handle(
            SeedExamples.workThread.enumerated().map { index, request in
                .upsert(delivered(request, app: "Chat", minutesAgo: Double(50 - index)), alert: false)
            } + [
                .upsert(delivered(SeedExamples.thaiVacationComment, minutesAgo: 20), alert: false),
                .upsert(delivered(video, minutesAgo: 10), alert: false),
                .upsert(delivered(SeedExamples.thaiVacationImage, minutesAgo: 3), alert: false),
            ])
    }

    @Test func idleFace() throws {
        var machine = try makeMachine()
        machine.handle([
            .upsert(delivered(SeedExamples.cyrillicMessage, app: "Messages"), alert: false),
            .upsert(delivered(SeedExamples.emojiMessage, app: "Messages"), alert: false),
        ])
        try GoldenImage.check("idle-connected", machine)
        machine.handle([.link(.outOfRange), .remove(identifier: "cyrillic-1"), .remove(identifier: "emoji-1")])
        try GoldenImage.check("idle-out-of-range", machine)
    }

    @Test func shortLook() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        try GoldenImage.check("short-look", machine)
    }

    @Test func newVideoLongLookWithLikeAndComment() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest(), minutesAgo: 2), alert: true))
        machine.press(.select)
        try GoldenImage.check("long-look-new-video", machine)
        machine.press(.down)
        try GoldenImage.check("long-look-new-video-like-focused", machine)
    }

    /// A notification whose default action the phone can carry out: "Open on phone" after the
    /// app's buttons, focused.
    @Test func openOnPhone() throws {
        var machine = try makeMachine()
        var video = delivered(try SeedExamples.newVideoRequest(), minutesAgo: 2)
        video.opensOnPhone = true
        machine.feed(.upsert(video, alert: true))
        machine.press(.select, .select)
        for _ in 0..<(machine.state.buttons(of: video).count - 3) { machine.press(.down) }
        try GoldenImage.check("long-look-open-on-phone", machine)
    }

    @Test func emojiBody() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.emojiMessage, app: "Messages"), alert: true))
        machine.press(.select)
        try GoldenImage.check("long-look-emoji", machine)
    }

    @Test func cyrillicBody() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.cyrillicMessage, app: "Messages"), alert: true))
        machine.press(.select)
        try GoldenImage.check("long-look-cyrillic", machine)
    }

    @Test func bodyTooLongForTheScreenScrolls() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(SeedExamples.longMessage, app: "Relay"), alert: true))
        machine.press(.select)
        try GoldenImage.check("long-look-long-top", machine)
        machine.press(.down, .down)
        try GoldenImage.check("long-look-long-scrolled", machine)
    }

    /// A 1 MB body as the phone keeps it (cut at a word to the model's limit, with "…"), read to
    /// its end: the last screen of text shows the ellipsis, then the buttons follow.
    @Test func hugeBodyEndsWithAnEllipsis() throws {
        var machine = try makeMachine()
        var request = SeedExamples.longMessage
        let sentence = "Every build of the release branch passed on both boards tonight. "
        let megabyte = String(repeating: sentence, count: 1_048_576 / sentence.utf8.count + 1)
        request.content.body = megabyte.shortened(toUTF8Bytes: ModelLimits.bodyBytes)
        machine.feed(.upsert(delivered(request, app: "Relay"), alert: true))
        machine.press(.select)
        var pressed = 0
        while case .longLook(let position) = machine.state.screen, position.focus == nil {
            let before = position.scroll
            machine.press(.down)
            pressed += 1
            guard case .longLook(let after) = machine.state.screen, after.focus == nil else { break }
            #expect(after.scroll > before, "each Down scrolls until the text ends")
        }
        #expect(pressed > 10, "4 KB of text is many screens")
        try GoldenImage.check("long-look-huge-body-end", machine)
    }

    /// The app's own suggestions (one with an emoji, in colour: the fonts the bootstrap installs).
    @Test func textReply() throws {
        var machine = try makeMachine(fonts: .everyScript)
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        machine.press(.select, .down, .down, .select, .down)
        try GoldenImage.check("text-reply", machine)
    }

    /// The app's suggestions, then the user's canned replies and the emoji, scrolled to the last.
    @Test func textReplyWithCannedReplies() throws {
        var machine = try makeMachine(fonts: .everyScript)
        machine.feed(.cannedReplies(["OK", "On my way", "Can't talk now", "Thanks!", "Call you later", "👍", "❤️", "😂", "🙏"]))
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        machine.press(.select, .down, .down, .select)
        let count = machine.state.replies("new-video-1", action: "comment-action").count
        for _ in 1..<count { machine.press(.down) }
        try GoldenImage.check("text-reply-canned-last", machine)
    }

    /// Do not disturb on the watch face, the controls with a mute, the long look's mute menu.
    @Test func doNotDisturbAndMutes() throws {
        var machine = try makeMachine()
        machine.feed(.alertPolicy(AlertPolicy(doNotDisturb: DoNotDisturb(source: .manual), mutes: [Mute(.app("Chat"))])))
        machine.feed(.upsert(delivered(SeedExamples.workThread[0], app: "Chat"), alert: false))
        try GoldenImage.check("idle-do-not-disturb", machine)
        machine.press(.up, .down)
        try GoldenImage.check("controls", machine)
        machine.press(.back, .down, .select, .select, .down, .down, .select)
        try GoldenImage.check("mute-menu", machine)
    }

    @Test func listGroupedByThread() throws {
        var machine = try makeMachine()
        try seedList(&machine)
        machine.press(.select)
        try GoldenImage.check("list-by-thread", machine)
    }

    @Test func thaiVacationWithPreviewsHidden() throws {
        var machine = try makeMachine(previewsHidden: true)
        try seedList(&machine)
        machine.press(.select)
        try GoldenImage.check("list-previews-hidden", machine)
        machine.feed(.upsert(delivered(SeedExamples.meetingInvite, app: "Calendar"), alert: true))
        try GoldenImage.check("short-look-previews-hidden", machine)
    }

    /// The Thai Vacation photo: the long look opens as text, then gains the picture (a synthetic
    /// sunset) between the subtitle and the body once it is stored on the wearable.
    @Test func thaiVacationPhotoInTheLongLook() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(thaiVacationOnTheWearable(), minutesAgo: 3), alert: true))
        machine.press(.select)
        let sunset = try sunsetImage()
        machine.feed(.attachmentStored(url: sunsetURL, width: sunset.width, height: sunset.height))
        try GoldenImage.check("long-look-image", machine, images: TestImageSource([sunsetURL: sunset]))
        // Pixels that cannot be had (a damaged file) leave an empty frame of the same size.
        try GoldenImage.check("long-look-image-unreadable", machine, images: TestImageSource([:]))
    }

    @Test func pairing() throws {
        var machine = try makeMachine()
        machine.feed(.pairingCode("482915"))
        try GoldenImage.check("pairing", machine)
    }

    @Test("BlueZ's bonding passkey is titled as Bluetooth's, so it is not taken for Relay's code")
    func bluetoothPasskey() throws {
        var machine = try makeMachine()
        machine.feed(.bluetoothPasskey("482915"))
        guard case .pairing(let position) = machine.state.screen else {
            Issue.record("not on the pairing screen: \(machine.state.screen)")
            return
        }
        #expect(position.isBluetoothPasskey && position.code == "482915")
        try GoldenImage.check("pairing-bluetooth-passkey", machine)
        var relay = try makeMachine()
        relay.feed(.pairingCode("482915"))
        #expect(try GoldenImage.screenshot(of: machine) != GoldenImage.screenshot(of: relay))
    }
}
