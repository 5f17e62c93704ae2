import Foundation
import RelayDisplay
import RelayExamples
import Testing
import WearableUI

/// Layout follows the panel's geometry instead of assuming 240×240.
@Suite struct LayoutScalingTests {
    @Test(arguments: [(128, 128), (240, 240), (320, 240), (240, 320)])
    func everyScreenDrawsWithinAnyPanel(width: Int, height: Int) throws {
        var machine = try makeMachine(width: width, height: height)
        let renderer = ScreenRenderer(layout: try machine.layout)
        var screens: [ScreenModel] = [machine.screenModel]
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        screens.append(machine.screenModel)
        machine.press(.select)
        screens.append(machine.screenModel)
        machine.press(.down, .down, .select)
        screens.append(machine.screenModel)
        machine.feed(.pairingCode("482915"))
        screens.append(machine.screenModel)
        for screen in screens {
            var canvas = Canvas(width: width, height: height)
            renderer.render(screen, into: &canvas)
            #expect(canvas.pixels.contains { $0 != 0 }, "\(screen) drew nothing at \(width)×\(height)")
        }
    }

    @Test func sizesScaleWithTheShorterSide() {
        let small = LayoutMetrics(width: 128, height: 128), large = LayoutMetrics(width: 480, height: 320)
        #expect(small.clock.size < LayoutMetrics(width: 240, height: 240).clock.size)
        #expect(large.clock.size == LayoutMetrics(width: 240, height: 240).px(66 * 320 / 240))
        #expect(small.margin >= 1 && large.contentWidth == 480 - 2 * large.margin)
    }

    @Test func theDisplayWritesOnlyWhatChanged() throws {
        let machine = try makeMachine()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-display-\(UUID().uuidString).fb").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let framebuffer = try Framebuffer.openFile(path: path, geometry: FramebufferGeometry(width: 240, height: 240, format: .rgb565))
        let display = WearableDisplay(framebuffer: framebuffer, renderer: ScreenRenderer(layout: try machine.layout))
        #expect(display.show(machine.screenModel) == [Rect(x: 0, y: 0, width: 240, height: 240)])
        #expect(display.show(machine.screenModel) == [])
        var next = machine
        next.feed(.tick(now: referenceNow.addingTimeInterval(60)))
        let changed = display.show(next.screenModel)
        // Only the clock's last digit changes from 09:41 to 09:42.
        #expect(changed.count == 1)
        #expect(changed.allSatisfy { $0.width < 60 && $0.height < 80 })
    }

    @Test func theBenchmarkRuns() throws {
        let report = try RenderBenchmark.run(iterations: 2)
        #expect(report.contains("full frame"))
    }
}
