import Foundation
import RelayDisplay
import Testing

@Suite struct JPEGFileTests {
    static func fixture() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/python-logo-16.jpg")
        return Array(try Data(contentsOf: url))
    }

    @Test("a baseline JPEG decodes to RGB at its size, with colour in it")
    func decodes() throws {
        let bytes = try Self.fixture()
        #expect(JPEGFile.looksLikeJPEG(bytes))
        let image = try JPEGFile.decode(bytes, maxPixels: 1_000)
        #expect(image.width == 16 && image.height == 16)
        let colours = Set((0..<16).flatMap { y in (0..<16).map { x in image[x, y] } })
        #expect(colours.count > 10, "a logo, not a flat field: \(colours.count) colours")
        // Asked to fit 8 pixels, libjpeg halves it (its longer side stays at least 8).
        let halved = try JPEGFile.decode(bytes, maxPixels: 1_000, fitSide: 8)
        #expect(halved.width == 8 && halved.height == 8)
        // Never below the side asked for.
        #expect(try JPEGFile.decode(bytes, maxPixels: 1_000, fitSide: 12).width == 16)
    }

    @Test("too many pixels, garbage and a PNG are errors, never crashes")
    func refusals() throws {
        let bytes = try Self.fixture()
        #expect(throws: JPEGFile.Error.self) { try JPEGFile.decode(bytes, maxPixels: 255) }
        #expect(throws: JPEGFile.Error.self) { try JPEGFile.decode([0xFF, 0xD8, 0xFF, 0x00, 0x01], maxPixels: 1_000) }
        #expect(throws: JPEGFile.Error.self) { try JPEGFile.decode([UInt8](repeating: 7, count: 100), maxPixels: 1_000) }
        guard let white = RGBImage(width: 2, height: 2, bytes: [UInt8](repeating: 255, count: 12)) else { return }
        let png = try PNGFile.encode(white)
        #expect(!JPEGFile.looksLikeJPEG(png))
        #expect(throws: JPEGFile.Error.self) { try JPEGFile.decode(png, maxPixels: 1_000) }
        // Every truncation of a real file: an error or a picture, never a crash.
        for length in stride(from: 0, to: bytes.count, by: 7) { _ = try? JPEGFile.decode(bytes.prefix(length), maxPixels: 1_000) }
    }
}
