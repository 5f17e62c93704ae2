import Foundation
import RelayDisplay
import Testing
import WearableUI

/// Golden pictures: each screen is rendered, presented to an RGB565 file framebuffer (the
/// panel's format) and read back as a screenshot, which must equal the committed PNG pixel for
/// pixel. `RELAY_UPDATE_GOLDENS=1 swift test` rewrites the goldens instead.
enum GoldenImage {
    /// The committed goldens, in the source tree (written when updating).
    static let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static var updating: Bool { ProcessInfo.processInfo.environment["RELAY_UPDATE_GOLDENS"] == "1" }

    /// Renders the machine's screen as the panel would show it, attachments' pixels from `images`.
    static func screenshot(of machine: UIStateMachine, images: (any AttachmentImageSource)? = nil) throws -> RGBImage {
        let metrics = try machine.layout.metrics
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-golden-\(UUID().uuidString).fb").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let framebuffer = try Framebuffer.openFile(
            path: path, geometry: FramebufferGeometry(width: metrics.width, height: metrics.height, format: .rgb565))
        var canvas = Canvas(width: metrics.width, height: metrics.height)
        ScreenRenderer(layout: try machine.layout, images: images).render(machine.state, configuration: machine.configuration, into: &canvas)
        framebuffer.present(&canvas)
        return framebuffer.snapshot()
    }

    /// Compares the machine's screen with the golden `name`.png.
    static func check(
        _ name: String, _ machine: UIStateMachine, images: (any AttachmentImageSource)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let actual = try screenshot(of: machine, images: images)
        let file = "\(name).png"
        if updating {
            try PNGFile.write(actual, to: sourceDirectory.appendingPathComponent(file).path)
            return
        }
        let bundled = try #require(
            Bundle.module.url(forResource: name, withExtension: "png", subdirectory: "Golden"),
            "no golden \(file): run RELAY_UPDATE_GOLDENS=1 swift test --filter WearableUITests", sourceLocation: sourceLocation)
        let expected = try PNGFile.read(from: bundled.path)
        let differing = actual.differingPixelCount(from: expected)
        if differing != 0 {
            let failed = FileManager.default.temporaryDirectory.appendingPathComponent("relay-actual-\(file)").path
            try PNGFile.write(actual, to: failed)
            Issue.record(
                "\(file): \(differing.map { "\($0) pixels differ" } ?? "size differs") from the golden; actual picture: \(failed)",
                sourceLocation: sourceLocation)
        }
    }
}
