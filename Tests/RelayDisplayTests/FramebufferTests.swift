import Foundation
import RelayDisplay
import Testing

/// The file-backed framebuffer: the same byte layout as a device, for real.
@Suite struct FramebufferTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)-\(name)").path
    }

    @Test func aMissingPanelUnderDevIsAnErrorAndNothingIsCreated() throws {
        let path = "/dev/relay-test-fb-\(UUID().uuidString.prefix(8))"
        let geometry = FramebufferGeometry(width: 4, height: 3, format: .rgb565)
        let error = #expect(throws: FramebufferError.self) { try Framebuffer.open(path: path, fileGeometry: geometry) }
        guard case .cannotOpen(let failure)? = error else {
            Issue.record("not a device error: \(String(describing: error))")
            return
        }
        #expect(failure.cause.code == ENOENT && failure.group == "video")
        #expect(failure.description.hasPrefix("the panel \(path) does not exist"))
        #expect(!FileManager.default.fileExists(atPath: path), "nothing created under /dev")
        // Outside /dev a missing path is the loopback file, made at its geometry.
        let file = temporaryPath("fb")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try Framebuffer.open(path: file, fileGeometry: geometry).geometry == geometry)
        // A character device that is no framebuffer is refused too, by what its driver answers.
        #expect(throws: FramebufferError.self) { try Framebuffer.open(path: "/dev/null", fileGeometry: geometry) }
    }

    @Test func rgb565PixelsLandAtTheirStrideInLittleEndian() throws {
        let path = temporaryPath("fb")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let geometry = FramebufferGeometry(width: 4, height: 3, format: .rgb565, stride: 12)
        let framebuffer = try Framebuffer.openFile(path: path, geometry: geometry)
        var canvas = Canvas(width: 4, height: 3)
        canvas.fill(Rect(x: 1, y: 2, width: 1, height: 1), with: Color(rgb: 0xFF0000))
        canvas.fill(Rect(x: 3, y: 0, width: 1, height: 1), with: .white)
        framebuffer.present(&canvas)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == geometry.requiredLength)
        #expect(bytes[2 * 12 + 2] == 0x00 && bytes[2 * 12 + 3] == 0xF8)  // red: 0xF800
        #expect(bytes[6] == 0xFF && bytes[7] == 0xFF)  // white
        #expect(bytes[8...11].allSatisfy { $0 == 0 })  // row padding untouched
        #expect(framebuffer.pixel(x: 1, y: 2) == Color(rgb: 0xFF0000))
        // It holds what the screen shows: the owner's only.
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func xrgb8888RoundTripsExactly() throws {
        let path = temporaryPath("fb")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let framebuffer = try Framebuffer.openFile(path: path, geometry: FramebufferGeometry(width: 2, height: 2, format: .xrgb8888))
        var canvas = Canvas(width: 2, height: 2)
        canvas.fill(Rect(x: 0, y: 1, width: 2, height: 1), with: Color(rgb: 0x123456))
        framebuffer.present(&canvas)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[8..<12]) == [0x56, 0x34, 0x12, 0x00])
        #expect(framebuffer.snapshot() == RGBImage(canvas))
    }

    @Test func presentingWritesOnlyPixelsThatChanged() throws {
        let path = temporaryPath("fb")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let framebuffer = try Framebuffer.openFile(path: path, geometry: FramebufferGeometry(width: 40, height: 30, format: .rgb565))
        var canvas = Canvas(width: 40, height: 30, background: Color(rgb: 0x202020))
        #expect(framebuffer.present(&canvas) == [Rect(x: 0, y: 0, width: 40, height: 30)])
        // Redrawing the same picture dirties everything but changes nothing on screen.
        canvas.fill(canvas.bounds, with: Color(rgb: 0x202020))
        #expect(framebuffer.present(&canvas) == [])
        canvas.fill(canvas.bounds, with: Color(rgb: 0x202020))
        canvas.fill(Rect(x: 5, y: 6, width: 3, height: 2), with: .white)
        #expect(framebuffer.present(&canvas) == [Rect(x: 5, y: 6, width: 3, height: 2)])
        #expect(canvas.dirty.isEmpty)
    }

    @Test func snapshotWidensRGB565AndWritesAPNG() throws {
        let path = temporaryPath("fb"), png = temporaryPath("shot.png")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: png)
        }
        let framebuffer = try Framebuffer.openFile(path: path, geometry: FramebufferGeometry(width: 3, height: 1, format: .rgb565))
        var canvas = Canvas(width: 3, height: 1)
        canvas.fill(Rect(x: 0, y: 0, width: 1, height: 1), with: .white)
        canvas.fill(Rect(x: 1, y: 0, width: 1, height: 1), with: Color(rgb: 0x808080))
        framebuffer.present(&canvas)
        let shot = framebuffer.snapshot()
        #expect(shot[0, 0] == .white)
        #expect(shot[1, 0] == Color(rgb: 0x848284))  // 0x808080 as the panel shows it
        try PNGFile.write(shot, to: png)
        #expect(try PNGFile.read(from: png) == shot)
    }

    @Test func aSecondMappingOfTheFileSeesTheFrame() throws {
        let path = temporaryPath("fb")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let geometry = FramebufferGeometry(width: 8, height: 8, format: .rgb565)
        let writer = try Framebuffer.openFile(path: path, geometry: geometry)
        var canvas = Canvas(width: 8, height: 8, background: Color(rgb: 0x00FF00))
        writer.present(&canvas)
        let reader = try Framebuffer.openFile(path: path, geometry: geometry, create: false)
        #expect(reader.pixel(x: 7, y: 7) == Color(rgb: 0x00FF00))
    }

    @Test func openingFailuresNameTheCallAndTheFile() {
        let missing = #expect(throws: FramebufferError.self) {
            try Framebuffer.openDevice(path: "/nonexistent/fb9")
        }
        // The device's failure names the call inside a sentence that says what to do.
        #expect(missing?.description.hasPrefix("the panel /nonexistent/fb9 does not exist (open(/nonexistent/fb9): No such file or directory") == true)
        #expect(throws: FramebufferError.self) {
            try Framebuffer.openFile(path: "/nonexistent/fb", geometry: FramebufferGeometry(width: 1, height: 1, format: .rgb565))
        }
        #expect(throws: FramebufferError.invalidGeometry(FramebufferGeometry(width: 10, height: 10, format: .rgb565, stride: 10))) {
            try Framebuffer.openFile(path: "/tmp/unused", geometry: FramebufferGeometry(width: 10, height: 10, format: .rgb565, stride: 10))
        }
    }

    @Test func aFileTooSmallIsNotGrownUnlessCreating() throws {
        let path = temporaryPath("fb")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(count: 10).write(to: URL(fileURLWithPath: path))
        #expect(throws: FramebufferError.tooSmall(name: path, length: 10, required: 200)) {
            try Framebuffer.openFile(path: path, geometry: FramebufferGeometry(width: 10, height: 10, format: .rgb565), create: false)
        }
    }

    @Test func aCharacterDeviceThatIsNotAFramebufferFailsAtTheIoctl() {
        let error = #expect(throws: FramebufferError.self) {
            try Framebuffer.openDevice(path: "/dev/null")
        }
        #expect(error?.description.contains("FBIOGET_VSCREENINFO") == true)
    }
}
