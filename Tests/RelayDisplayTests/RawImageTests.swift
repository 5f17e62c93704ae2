import RelayDisplay
import Testing

/// freedesktop `image-data`: rows with a stride, RGB or RGBA, from a sender that is not trusted.
@Suite struct RawImageTests {
    @Test func paddedRowsArePacked() throws {
        // 2×2 RGB, rows 8 bytes apart; the last row is not padded, as GdkPixbuf sends it.
        let data: [UInt8] = [1, 2, 3, 4, 5, 6, 0xEE, 0xEE, 7, 8, 9, 10, 11, 12]
        let image = try #require(RGBImage(raw: data, width: 2, height: 2, rowstride: 8, channels: 3))
        #expect(image.bytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        // Padded last row too.
        #expect(RGBImage(raw: data + [0xEE, 0xEE], width: 2, height: 2, rowstride: 8, channels: 3) == image)
    }

    @Test func alphaIsComposedOnBlack() throws {
        let data: [UInt8] = [200, 100, 50, 128, 255, 255, 255, 0, 10, 20, 30, 255]
        let image = try #require(RGBImage(raw: data, width: 3, height: 1, rowstride: 12, channels: 4))
        #expect(image.bytes == [100, 50, 25, 0, 0, 0, 10, 20, 30])
    }

    @Test func inconsistentDescriptionsAreRefused() {
        let data = [UInt8](repeating: 7, count: 14)
        #expect(RGBImage(raw: data, width: 2, height: 2, rowstride: 5, channels: 3) == nil)  // stride shorter than a row
        #expect(RGBImage(raw: data.dropLast(), width: 2, height: 2, rowstride: 8, channels: 3) == nil)  // one byte short
        #expect(RGBImage(raw: data, width: 2, height: 2, rowstride: 8, channels: 2) == nil)
        #expect(RGBImage(raw: data, width: 0, height: 2, rowstride: 8, channels: 3) == nil)
        #expect(RGBImage(raw: data, width: 2, height: -1, rowstride: 8, channels: 3) == nil)
        #expect(RGBImage(raw: [UInt8](), width: 1, height: 1, rowstride: 3, channels: 3) == nil)
    }

    @Test func hostileSizesNeitherTrapNorAllocate() {
        let data = [UInt8](repeating: 7, count: 64)
        #expect(RGBImage(raw: data, width: Int.max, height: 1, rowstride: Int.max, channels: 4) == nil)
        #expect(RGBImage(raw: data, width: 1, height: Int.max, rowstride: 3, channels: 3) == nil)
        #expect(RGBImage(raw: data, width: 1, height: 3, rowstride: Int.max / 2, channels: 3) == nil)
        #expect(RGBImage(raw: data, width: Int(Int32.max), height: Int(Int32.max), rowstride: Int(Int32.max), channels: 4) == nil)
    }
}
