import Foundation
import RelayDisplay
import Testing

@Suite struct PNGFileTests {
    @Test func imagesRoundTripThroughLibpng() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let image = try #require(RGBImage(width: 3, height: 2, bytes: (0..<18).map { UInt8($0 * 14) }))
        try PNGFile.write(image, to: path)
        #expect(try PNGFile.read(from: path) == image)
        #expect(image.differingPixelCount(from: image) == 0)
        // A screenshot shows notifications: its owner's alone.
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)
        // Nothing is left beside it.
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name + ".") }.isEmpty)
    }

    @Test func aFileThatIsNotAPNGIsReportedWithLibpngsMessage() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: PNGFile.Error.self) { try PNGFile.read(from: path) }
        #expect(error?.path == path)
        #expect(error?.message.isEmpty == false)
        let pixel = try #require(RGBImage(width: 1, height: 1, bytes: [0, 0, 0]))
        #expect(throws: PNGFile.Error.self) { try PNGFile.write(pixel, to: "/nonexistent/dir/x.png") }
    }

    @Test func mismatchedSizesAreNotComparable() {
        let small = RGBImage(width: 1, height: 1, bytes: [0, 0, 0])
        let wide = RGBImage(width: 2, height: 1, bytes: [0, 0, 0, 0, 0, 0])
        #expect(small.flatMap { s in wide.map { s.differingPixelCount(from: $0) } } == .some(nil))
        #expect(RGBImage(width: 2, height: 2, bytes: [1]) == nil)
    }
}
