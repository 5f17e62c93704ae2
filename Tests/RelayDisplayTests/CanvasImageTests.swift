import RelayDisplay
import Testing

@Suite struct CanvasImageTests {
    @Test func picturesAreCopiedWithinTheClipAndMarkedDirty() throws {
        // 3×2: red, green, blue / white, grey, black.
        let image = try #require(RGBImage(
            width: 3, height: 2, bytes: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 128, 128, 128, 0, 0, 0]))
        var canvas = Canvas(width: 10, height: 10, background: Color(rgb: 0x123456))
        _ = canvas.takeDirty()
        canvas.draw(image, x: 4, y: 5)
        #expect(canvas[4, 5] == Color(rgb: 0xFF0000) && canvas[6, 5] == Color(rgb: 0x0000FF))
        #expect(canvas[5, 6] == Color(rgb: 0x808080) && canvas[6, 6] == .black)
        #expect(canvas[3, 5] == Color(rgb: 0x123456) && canvas[7, 6] == Color(rgb: 0x123456))
        #expect(canvas.takeDirty().rects == [Rect(x: 4, y: 5, width: 3, height: 2)])

        // Partly outside the clip (and the canvas): only the inside is drawn.
        canvas.clip = Rect(x: 0, y: 0, width: 10, height: 3)
        canvas.draw(image, x: -1, y: 2)
        #expect(canvas[0, 2] == Color(rgb: 0x00FF00) && canvas[1, 2] == Color(rgb: 0x0000FF))
        #expect(canvas[0, 3] == Color(rgb: 0x123456))
        #expect(canvas.takeDirty().rects == [Rect(x: 0, y: 2, width: 2, height: 1)])
        canvas.draw(image, x: 20, y: 20)
        #expect(canvas.takeDirty().rects.isEmpty)
    }
}
