import Foundation
import RelayCore
import RelayDisplay
import RelayExamples
import Testing
import WearableUI

/// Pictures in the long look: the state machine learns that an attachment is stored (pictures
/// arrive after their notification), the layout makes room for it, scrolling covers it, and
/// the renderer draws it from an injected source, scaling it once.
@Suite struct AttachmentImageTests {
    private func longLookModel(_ machine: UIStateMachine) -> ScreenModel.LongLook? {
        if case .longLook(let look) = machine.screenModel { look } else { nil }
    }

    @Test func theOpenLongLookAsksForARenderWhenItsPictureIsStored() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(thaiVacationOnTheWearable()), alert: true))
        machine.press(.select)
        #expect(longLookModel(machine)?.image == nil)

        // Another notification's picture changes nothing on screen.
        #expect(machine.handle(.attachmentStored(url: "sha256:" + String(repeating: "0", count: 64), width: 10, height: 10)) == [])
        #expect(machine.handle(.attachmentStored(url: sunsetURL, width: 320, height: 240)) == [.render])
        #expect(longLookModel(machine)?.image == AttachmentImage(url: sunsetURL, width: 320, height: 240))
        // The same report again is no change.
        #expect(machine.handle(.attachmentStored(url: sunsetURL, width: 320, height: 240)) == [])
        #expect(machine.handle(.attachmentRemoved(url: sunsetURL)) == [.render])
        #expect(longLookModel(machine)?.image == nil)
    }

    @Test func aPictureStoredBeforeTheLongLookOpensIsThereAtOnce() throws {
        var machine = try makeMachine()
        machine.feed(.upsert(delivered(thaiVacationOnTheWearable()), alert: false))
        // The watch face does not show pictures: nothing to redraw.
        #expect(machine.handle(.attachmentStored(url: sunsetURL, width: 320, height: 240)) == [])
        machine.press(.select, .select)  // the list, then the notification
        #expect(longLookModel(machine)?.image == AttachmentImage(url: sunsetURL, width: 320, height: 240))
        // A size no picture has is ignored.
        #expect(machine.handle(.attachmentStored(url: "sha256:aa", width: 0, height: 240)) == [])
        #expect(machine.state.storedImages["sha256:aa"] == nil)
    }

    @Test func theFirstStoredPNGAttachmentIsTheOneShown() throws {
        var machine = try makeMachine()
        var request = thaiVacationOnTheWearable()
        request.content.attachments = [
            NotificationAttachment(identifier: "clip", url: "sha256:01", type: "video/mp4"),
            NotificationAttachment(identifier: "jpeg", url: "sha256:02", type: "image/jpeg"),
            NotificationAttachment(identifier: "first", url: "sha256:03", type: "image/png"),
            NotificationAttachment(identifier: "untyped", url: "sha256:04"),
        ]
        machine.feed(.upsert(delivered(request), alert: true))
        machine.press(.select)
        machine.handle([
            .attachmentStored(url: "sha256:01", width: 10, height: 10), .attachmentStored(url: "sha256:02", width: 10, height: 10),
            .attachmentStored(url: "sha256:04", width: 40, height: 40),
        ])
        // Only PNGs (or untyped files) are decoded; the first PNG is not stored yet.
        #expect(longLookModel(machine)?.image?.url == "sha256:04")
        machine.feed(.attachmentStored(url: "sha256:03", width: 30, height: 30))
        #expect(longLookModel(machine)?.image?.url == "sha256:03")
    }

    @Test(arguments: [(240, 240), (128, 128), (320, 240)])
    func thePictureFitsTheColumnAndTheContentGrowsByIt(width: Int, height: Int) throws {
        var machine = try makeMachine(width: width, height: height)
        let notification = delivered(thaiVacationOnTheWearable())
        machine.feed(.upsert(notification, alert: false))
        let without = try machine.layout.longLookGeometry(notification, state: machine.state)
        #expect(without.image == nil)
        for (pictureWidth, pictureHeight) in [(320, 240), (40, 30), (30, 2000), (5000, 10)] {
            machine.feed(.attachmentStored(url: sunsetURL, width: pictureWidth, height: pictureHeight))
            let geometry = try machine.layout.longLookGeometry(notification, state: machine.state)
            let image = try #require(geometry.image)
            let metrics = try machine.layout.metrics
            #expect(image.count <= geometry.viewportHeight * 6 / 10)
            #expect(image.count <= 2 * pictureHeight)
            #expect(image.count > 0)
            // Everything below the picture moved down by its height and the gaps around it.
            #expect(geometry.contentHeight == without.contentHeight + image.count + metrics.px(4) + metrics.px(8))
            #expect(geometry.buttons.first?.lowerBound == without.buttons.first.map { $0.lowerBound + image.count + metrics.px(12) })
            #expect(geometry.anchors.contains(image.lowerBound) && geometry.anchors == geometry.anchors.sorted())
        }
    }

    /// A tall picture pushes the body below the first screen: Down scrolls past the picture to
    /// the body, then to the buttons, and Up returns to the top.
    @Test(arguments: [(240, 240), (128, 128)])
    func scrollingReachesTheBodyBelowATallPicture(width: Int, height: Int) throws {
        var machine = try makeMachine(width: width, height: height)
        var request = thaiVacationOnTheWearable()
        request.content.body = "Check out this photo! The boat left at dawn and we watched the sun go down from the pier."
        let notification = delivered(request)
        machine.feed(.upsert(notification, alert: true))
        machine.press(.select)
        machine.feed(.attachmentStored(url: sunsetURL, width: 90, height: 1600))
        let geometry = try machine.layout.longLookGeometry(notification, state: machine.state)
        let image = try #require(geometry.image)
        let buttonTop = try #require(geometry.buttons.first?.lowerBound)
        let bodyLines = geometry.anchors.filter { $0 >= image.upperBound && $0 < buttonTop }
        try #require(bodyLines.count >= 2, "the body should take several lines")
        let lineHeight = bodyLines[1] - bodyLines[0]
        #expect(try #require(bodyLines.last) >= geometry.viewportHeight, "the body ends below the first screen")

        var scrolls: [Int] = [0]
        for _ in 0..<40 {
            machine.press(.down)
            guard case .longLook(let position) = machine.state.screen else { break }
            scrolls.append(position.scroll)
            if position.focus != nil { break }
        }
        // Every line of the body was wholly on screen at some point on the way down.
        for line in bodyLines {
            #expect(scrolls.contains { $0 <= line && line + lineHeight <= $0 + geometry.viewportHeight },
                    "body line at \(line) never in view; scrolled \(scrolls)")
        }
        #expect(zip(scrolls, scrolls.dropFirst()).allSatisfy { $0 <= $1 && $1 - $0 <= geometry.viewportHeight })
        let end = try #require(scrolls.last)
        #expect(end <= geometry.maxScroll && geometry.isFullyVisible(button: 0, scroll: end))
        #expect(machine.state.screen == .longLook(LongLookPosition(identifier: request.identifier, scroll: end, focus: 0)))
        for _ in 0..<40 { machine.press(.up) }
        #expect(machine.state.screen == .longLook(LongLookPosition(identifier: request.identifier, scroll: 0)))
    }

    @Test func theFocusedButtonStaysInViewWhenAPictureArrivesAboveIt() throws {
        var machine = try makeMachine()
        let notification = delivered(thaiVacationOnTheWearable())
        machine.feed(.upsert(notification, alert: true))
        machine.press(.select, .down)  // everything fits: Down focuses the first button
        guard case .longLook(let before) = machine.state.screen, let focus = before.focus else {
            Issue.record("expected a focused button, got \(machine.state.screen)")
            return
        }
        machine.feed(.attachmentStored(url: sunsetURL, width: 320, height: 240))
        guard case .longLook(let after) = machine.state.screen else {
            Issue.record("the long look closed")
            return
        }
        let geometry = try machine.layout.longLookGeometry(notification, state: machine.state)
        #expect(after.focus == focus)
        #expect(after.scroll > 0 && geometry.isFullyVisible(button: focus, scroll: after.scroll))
    }

    @Test func theRendererDrawsTheScaledPictureAndScalesItOnce() throws {
        var machine = try makeMachine()
        let notification = delivered(thaiVacationOnTheWearable())
        machine.feed(.upsert(notification, alert: true))
        machine.press(.select)
        let sunset = try sunsetImage()
        machine.feed(.attachmentStored(url: sunsetURL, width: sunset.width, height: sunset.height))
        let source = TestImageSource([sunsetURL: sunset])
        let renderer = ScreenRenderer(layout: try machine.layout, images: source)
        var canvas = Canvas(width: 240, height: 240)
        renderer.render(machine.screenModel, into: &canvas)

        // Where the layout put it: centred in the column, below the header.
        let metrics = try machine.layout.metrics
        let geometry = try machine.layout.longLookGeometry(notification, state: machine.state)
        let extent = try #require(geometry.image)
        let size = RGBImage.fittedSize(width: 320, height: 240, maxWidth: metrics.contentWidth, maxHeight: extent.count)
        #expect(size.height == extent.count)
        let left = metrics.margin + (metrics.contentWidth - size.width) / 2, top = metrics.headerHeight + extent.lowerBound
        let scaled = sunset.resized(width: size.width, height: size.height)
        for (x, y) in [(0, 0), (size.width - 1, size.height - 1), (size.width / 2, size.height / 3), (size.width * 5 / 8, size.height - 2)] {
            #expect(canvas[left + x, top + y] == scaled[x, y], "pixel \(x), \(y) of the picture")
        }
        #expect(canvas[left - 1, top + size.height / 2] == Theme.standard.background)

        // Scrolling renders again and again; the picture is fetched and scaled once.
        for _ in 0..<4 {
            machine.press(.down)
            renderer.render(machine.screenModel, into: &canvas)
        }
        // Back to the top: out of the buttons, then scrolled up.
        for _ in 0..<8 { machine.press(.up) }
        renderer.render(machine.screenModel, into: &canvas)
        #expect(source.requestCount == 1)
        #expect(canvas[left + size.width / 2, top + size.height / 3] == scaled[size.width / 2, size.height / 3])
    }

    @Test func withoutPixelsTheReservedFrameIsAnEmptyBox() throws {
        var machine = try makeMachine()
        let notification = delivered(thaiVacationOnTheWearable())
        machine.feed(.upsert(notification, alert: true))
        machine.press(.select)
        machine.feed(.attachmentStored(url: sunsetURL, width: 320, height: 240))
        var canvas = Canvas(width: 240, height: 240)
        ScreenRenderer(layout: try machine.layout).render(machine.screenModel, into: &canvas)
        let metrics = try machine.layout.metrics
        let extent = try #require(try machine.layout.longLookGeometry(notification, state: machine.state).image)
        let size = RGBImage.fittedSize(width: 320, height: 240, maxWidth: metrics.contentWidth, maxHeight: extent.count)
        let left = metrics.margin + (metrics.contentWidth - size.width) / 2, top = metrics.headerHeight + extent.lowerBound
        #expect(canvas[left, top + size.height / 2] == Theme.standard.secondary)
        #expect(canvas[left + size.width / 2, top + size.height / 2] == Theme.standard.surface)
    }
}
