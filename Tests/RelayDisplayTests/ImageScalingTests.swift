import RelayDisplay
import Testing

/// Area-averaging scaling: known patterns give known averages, aspect ratios are kept, and
/// pictures are never enlarged when fitted.
@Suite struct ImageScalingTests {
    /// A picture of one colour.
    private func solid(_ width: Int, _ height: Int, _ rgb: [UInt8]) throws -> RGBImage {
        try #require(RGBImage(width: width, height: height, bytes: Array((0..<(width * height)).map { _ in rgb }.joined())))
    }

    /// Black and white pixels alternating like a chessboard, or in columns.
    private func pattern(_ width: Int, _ height: Int, white: (Int, Int) -> Bool) throws -> RGBImage {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { bytes += Array(repeating: white(x, y) ? 255 : 0, count: 3) }
        }
        return try #require(RGBImage(width: width, height: height, bytes: bytes))
    }

    @Test func aCheckerboardHalvedIsMidGrey() throws {
        let checker = try pattern(4, 4) { ($0 + $1) % 2 == 0 }
        let halved = checker.resized(width: 2, height: 2)
        #expect(halved.width == 2 && halved.height == 2)
        #expect(halved.bytes == Array(repeating: 128, count: 12))  // 127.5, rounded half up
    }

    @Test func fractionalCoverageIsWeighted() throws {
        // Three pixels into two: each new pixel covers one and a half, so the white middle one
        // gives each a third of its value.
        let row = try #require(RGBImage(width: 3, height: 1, bytes: [0, 0, 0, 255, 255, 255, 0, 0, 0]))
        #expect(row.resized(width: 2, height: 1).bytes == [85, 85, 85, 85, 85, 85])
    }

    @Test func finePatternsAverageInsteadOfAliasing() throws {
        // One-pixel stripes shrunk tenfold: point sampling would give all black or all white.
        let stripes = try pattern(300, 200) { x, _ in x % 2 == 0 }
        let small = stripes.scaledToFit(maxWidth: 30, maxHeight: 30)
        #expect(small.width == 30 && small.height == 20)
        #expect(small.bytes.allSatisfy { $0 == 128 })
    }

    @Test func aUniformColourStaysUniformAtAnySize() throws {
        let green = try solid(37, 23, [10, 200, 30])
        for (width, height) in [(11, 7), (36, 22), (5, 23), (74, 46), (1, 1)] {
            let resized = green.resized(width: width, height: height)
            #expect(resized.width == width && resized.height == height)
            #expect(resized == (try solid(width, height, [10, 200, 30])), "\(width)×\(height)")
        }
    }

    @Test func fittingKeepsTheAspectRatioAndNeverEnlarges() throws {
        let wide = try solid(400, 100, [1, 2, 3]), tall = try solid(100, 400, [1, 2, 3])
        #expect(wide.scaledToFit(maxWidth: 100, maxHeight: 100).width == 100)
        #expect(wide.scaledToFit(maxWidth: 100, maxHeight: 100).height == 25)
        #expect(tall.scaledToFit(maxWidth: 100, maxHeight: 100).width == 25)
        #expect(tall.scaledToFit(maxWidth: 320, maxHeight: 240).height == 240)
        #expect(tall.scaledToFit(maxWidth: 320, maxHeight: 240).width == 60)
        // Already fits: returned as it is.
        #expect(wide.scaledToFit(maxWidth: 1000, maxHeight: 1000) == wide)
        #expect(wide.scaledToFit(maxWidth: 400, maxHeight: 100) == wide)
        // A 4000×3000 photo on a 320×240 panel, and a sliver that must keep one pixel.
        #expect(RGBImage.fittedSize(width: 4000, height: 3000, maxWidth: 320, maxHeight: 240) == (320, 240))
        #expect(RGBImage.fittedSize(width: 10000, height: 3, maxWidth: 100, maxHeight: 100) == (100, 1))
    }

    @Test func fittingMayEnlargeUpToTheScaleAllowed() {
        #expect(RGBImage.fittedSize(width: 50, height: 30, maxWidth: 216, maxHeight: 126, maxScale: 2) == (100, 60))
        #expect(RGBImage.fittedSize(width: 50, height: 30, maxWidth: 216, maxHeight: 126) == (50, 30))
        #expect(RGBImage.fittedSize(width: 100, height: 100, maxWidth: 216, maxHeight: 126, maxScale: 2) == (126, 126))
        #expect(RGBImage.fittedSize(width: 0, height: 30, maxWidth: 216, maxHeight: 126) == (0, 0))
    }

    @Test func enlargingRepeatsPixels() throws {
        let pixel = try solid(1, 1, [9, 99, 199])
        #expect(pixel.resized(width: 3, height: 2) == (try solid(3, 2, [9, 99, 199])))
        let pair = try #require(RGBImage(width: 2, height: 1, bytes: [0, 0, 0, 255, 255, 255]))
        #expect(pair.resized(width: 4, height: 1).bytes == [0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255])
    }

    @Test func emptySizesGiveEmptyOrBlackPictures() throws {
        let green = try solid(3, 3, [10, 200, 30])
        #expect(green.resized(width: 0, height: 5).bytes.isEmpty)
        #expect(green.resized(width: -4, height: 5).width == 0)
        let empty = try #require(RGBImage(width: 0, height: 0, bytes: []))
        #expect(empty.resized(width: 2, height: 1).bytes == [0, 0, 0, 0, 0, 0])
        #expect(empty.scaledToFit(maxWidth: 10, maxHeight: 10) == empty)
    }
}
