@testable import RelayDisplay
import Testing

@Suite struct CanvasTests {
    @Test func blendingRoundsEachChannel() {
        #expect(Canvas.mix(0x000000, 0xFFFFFF, alpha: 0) == 0x000000)
        #expect(Canvas.mix(0x000000, 0xFFFFFF, alpha: 255) == 0xFFFFFF)
        #expect(Canvas.mix(0x000000, 0xFFFFFF, alpha: 128) == 0x808080)
        #expect(Canvas.mix(0xFF0000, 0x0000FF, alpha: 51) == 0xCC0033)
        // Exhaustive against the exact rounded quotient for one channel.
        for background in stride(from: UInt32(0), through: 255, by: 15) {
            for foreground in stride(from: UInt32(0), through: 255, by: 17) {
                for alpha in UInt32(0)...255 {
                    let exact = (Double(background * (255 - alpha) + foreground * alpha) / 255).rounded()
                    #expect(Canvas.mix(background, foreground, alpha: alpha) == UInt32(exact))
                }
            }
        }
    }

    @Test func drawingRecordsDirtyAreasAndRespectsTheClip() {
        var canvas = Canvas(width: 100, height: 100)
        _ = canvas.takeDirty()
        canvas.clip = Rect(x: 10, y: 10, width: 50, height: 50)
        canvas.fill(Rect(x: 0, y: 0, width: 20, height: 20), with: .white)
        #expect(canvas[5, 5] == .black)
        #expect(canvas[15, 15] == .white)
        #expect(canvas.takeDirty().rects == [Rect(x: 10, y: 10, width: 10, height: 10)])
        canvas.clip = Rect(x: -50, y: -50, width: 500, height: 500)
        #expect(canvas.clip == canvas.bounds)
    }

    @Test func dirtyRegionsMergeTouchingRectanglesAndCollapsePastTheLimit() {
        var region = DirtyRegion(limit: 3)
        region.add(Rect(x: 0, y: 0, width: 10, height: 10))
        region.add(Rect(x: 10, y: 0, width: 10, height: 10))  // shares an edge
        #expect(region.rects == [Rect(x: 0, y: 0, width: 20, height: 10)])
        region.add(Rect(x: 50, y: 50, width: 5, height: 5))
        region.add(Rect(x: 80, y: 0, width: 5, height: 5))
        #expect(region.rects.count == 3)
        region.add(Rect(x: 0, y: 90, width: 5, height: 5))
        #expect(region.rects == [Rect(x: 0, y: 0, width: 85, height: 95)])
        region.add(Rect(x: 1, y: 1, width: 0, height: 9))
        #expect(region.rects.count == 1)
    }

    @Test func roundedCornersAreAntiAliased() {
        var canvas = Canvas(width: 40, height: 40)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 40, height: 40), radius: 10, color: .white)
        #expect(canvas[0, 0] == .black)
        #expect(canvas[20, 20] == .white)
        #expect(canvas[20, 0] == .white)
        let edge = canvas[2, 3].red
        #expect(edge > 0 && edge < 255)
    }

    @Test func strokesLeaveTheInsideUntouched() {
        var canvas = Canvas(width: 20, height: 20)
        canvas.strokeRoundedRect(Rect(x: 0, y: 0, width: 20, height: 20), radius: 0, lineWidth: 2, color: .white)
        #expect(canvas[0, 10] == .white && canvas[1, 10] == .white)
        #expect(canvas[2, 10] == .black && canvas[10, 10] == .black)
    }

    @Test func rgb565ConversionKeepsWhiteAndBlack() {
        #expect(PixelFormat.rgb565.encode(0xFFFFFF) == 0xFFFF)
        #expect(PixelFormat.rgb565.decode(0xFFFF) == 0xFFFFFF)
        #expect(PixelFormat.rgb565.encode(0x000000) == 0)
        #expect(PixelFormat.rgb565.encode(0x00FF00) == 0x07E0)
        #expect(PixelFormat.xrgb8888.decode(0xFF12_3456) == 0x123456)
    }
}
