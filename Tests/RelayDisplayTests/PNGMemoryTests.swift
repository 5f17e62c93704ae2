import Foundation
import RelayDisplay
import Testing

/// PNGs in memory, as attachments arrive over the link: round trips, the pixel limit checked
/// before anything is allocated, and damaged data reported rather than crashing.
@Suite struct PNGMemoryTests {
    /// A 7×5 picture with every byte different, so a swapped channel or row shows.
    private let sample = RGBImage(width: 7, height: 5, bytes: (0..<105).map { UInt8($0 * 37 % 256) })

    @Test func encodedPicturesDecodeToTheSamePixels() throws {
        let image = try #require(sample)
        let encoded = try PNGFile.encode(image)
        #expect(Array(encoded.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try PNGFile.decode(encoded, maxPixels: 35) == image)
        #expect(try PNGFile.decode(Data(encoded), maxPixels: 35) == image)
        // Equal pictures give equal bytes: content addressing by SHA-256 relies on it.
        #expect(try PNGFile.encode(image) == encoded)
    }

    @Test func aPictureLargerThanTheLimitIsRefusedWithItsSize() throws {
        let image = try #require(sample)
        let encoded = try PNGFile.encode(image)
        let error = #expect(throws: PNGFile.Error.self) { try PNGFile.decode(encoded, maxPixels: 34) }
        #expect(error?.kind == .tooLarge(width: 7, height: 5, maxPixels: 34))
        #expect(error?.description.contains("7×5") == true)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGFile.write(image, to: path)
        let fromFile = #expect(throws: PNGFile.Error.self) { try PNGFile.read(from: path, maxPixels: 34) }
        #expect(fromFile?.kind == .tooLarge(width: 7, height: 5, maxPixels: 34))
        #expect(fromFile?.path == path)
        #expect(try PNGFile.read(from: path, maxPixels: 35) == image)
    }

    /// A header claiming 60000×60000 pixels (10.8 GB as RGB) over a few bytes: refused by size,
    /// which only works if the check comes before the allocation (the test would die otherwise).
    @Test func aDecompressionBombIsRefusedBeforeItsBufferIsAllocated() throws {
        let bomb = Self.pngHeaderOnly(width: 60000, height: 60000)
        let error = #expect(throws: PNGFile.Error.self) { try PNGFile.decode(bomb, maxPixels: PNGFile.defaultMaxPixels) }
        #expect(error?.kind == .tooLarge(width: 60000, height: 60000, maxPixels: PNGFile.defaultMaxPixels))

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bomb).write(to: URL(fileURLWithPath: path))
        let size = try PNGFile.size(ofFile: path)
        #expect(size.width == 60000 && size.height == 60000)
        #expect(throws: PNGFile.Error.self) { try PNGFile.read(from: path) }
    }

    @Test func theSizeOfAFileComesFromItsHeader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGFile.write(try #require(sample), to: path)
        let size = try PNGFile.size(ofFile: path)
        #expect(size.width == 7 && size.height == 5)
        let missing = #expect(throws: PNGFile.Error.self) { try PNGFile.size(ofFile: path + ".missing") }
        #expect(missing?.kind == .unreadable)
    }

    @Test func everyTruncationIsAnErrorNotACrash() throws {
        let encoded = try PNGFile.encode(try #require(sample))
        for length in 0..<encoded.count - 12 {  // the last 12 bytes are IEND, which libpng does not need
            let error = #expect(throws: PNGFile.Error.self, "\(length) of \(encoded.count) bytes") {
                try PNGFile.decode(encoded.prefix(length), maxPixels: 100)
            }
            #expect(error?.kind == .unreadable)
            #expect(error?.message.isEmpty == false)
        }
    }

    @Test func garbageAndDamagedPicturesAreErrors() throws {
        let garbage = #expect(throws: PNGFile.Error.self) { try PNGFile.decode(Array("not a picture".utf8), maxPixels: 100) }
        #expect(garbage?.description.hasPrefix("PNG data: ") == true)
        #expect(throws: PNGFile.Error.self) { try PNGFile.decode([UInt8](), maxPixels: 100) }

        // Flipped bytes anywhere: each decode either fails or yields a 7×5 picture; none may crash.
        let encoded = try PNGFile.encode(try #require(sample))
        var random = SplitMix(seed: 7)
        var failures = 0
        for _ in 0..<300 {
            var damaged = encoded
            for _ in 0..<3 { damaged[Int(random.next() % UInt64(damaged.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
            do {
                let image = try PNGFile.decode(damaged, maxPixels: 1000)
                #expect(image.bytes.count == image.width * image.height * 3)
            } catch {
                failures += 1
            }
        }
        #expect(failures > 250, "chunk CRCs should catch nearly every damaged byte")
    }

    @Test func anEmptyPictureCannotBeEncoded() throws {
        let empty = try #require(RGBImage(width: 0, height: 0, bytes: []))
        let error = #expect(throws: PNGFile.Error.self) { try PNGFile.encode(empty) }
        #expect(error?.kind == .unwritable)
    }

    /// A PNG signature, an IHDR for an 8-bit RGB picture of the size given, an IDAT holding an
    /// empty zlib stream (libpng reads the header up to the first IDAT) and IEND: no pixels.
    static func pngHeaderOnly(width: UInt32, height: UInt32) -> [UInt8] {
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    /// The CRC-32 PNG chunks end with (ISO 3309, reflected, polynomial 0xEDB88320).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// A small seeded generator (SplitMix64), so damaged inputs are the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
