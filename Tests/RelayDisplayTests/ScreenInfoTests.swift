@testable import RelayDisplay
import Testing

/// The fbdev logic that needs no device: from the two screen-info structs to a geometry.
@Suite struct ScreenInfoTests {
    static let rgb565 = VariableScreenInfo(
        xres: 240, yres: 240, bitsPerPixel: 16, red: BitField(offset: 11, length: 5),
        green: BitField(offset: 5, length: 6), blue: BitField(offset: 0, length: 5))
    static let xrgb8888 = VariableScreenInfo(
        xres: 320, yres: 240, bitsPerPixel: 32, red: BitField(offset: 16, length: 8),
        green: BitField(offset: 8, length: 8), blue: BitField(offset: 0, length: 8),
        transparency: BitField(offset: 24, length: 8))

    @Test func rgb565PanelWithPaddedRows() throws {
        let geometry = try FramebufferGeometry(
            variable: Self.rgb565, fixed: FixedScreenInfo(id: "fb_st7789v", memoryLength: 512 * 240, lineLength: 512))
        #expect(geometry == FramebufferGeometry(width: 240, height: 240, format: .rgb565, stride: 512))
    }

    @Test func xrgb8888WithPanningOffset() throws {
        var variable = Self.xrgb8888
        variable.yresVirtual = 480
        variable.yoffset = 240
        let geometry = try FramebufferGeometry(variable: variable, fixed: FixedScreenInfo(memoryLength: 1280 * 480, lineLength: 1280))
        #expect(geometry.format == .xrgb8888)
        #expect(geometry.stride == 1280)
        #expect(geometry.offset == 240 * 1280)
    }

    @Test func zeroLineLengthMeansUnpaddedVirtualRows() throws {
        var variable = Self.rgb565
        variable.xresVirtual = 256
        let geometry = try FramebufferGeometry(variable: variable, fixed: FixedScreenInfo(memoryLength: 512 * 240, lineLength: 0))
        #expect(geometry.stride == 512)
    }

    @Test func otherFormatsAreRefusedNamingTheirLayout() {
        let rgb888 = VariableScreenInfo(
            xres: 240, yres: 240, bitsPerPixel: 24, red: BitField(offset: 16, length: 8),
            green: BitField(offset: 8, length: 8), blue: BitField(offset: 0, length: 8))
        let error = #expect(throws: FramebufferError.self) {
            try FramebufferGeometry(variable: rgb888, fixed: FixedScreenInfo(memoryLength: 720 * 240, lineLength: 720))
        }
        let text = error?.description ?? ""
        #expect(text.contains("24 bits per pixel"))
        #expect(text.contains("red 16/8, green 8/8, blue 0/8"))

        let bgr565 = VariableScreenInfo(
            xres: 240, yres: 240, bitsPerPixel: 16, red: BitField(offset: 0, length: 5),
            green: BitField(offset: 5, length: 6), blue: BitField(offset: 11, length: 5))
        #expect(throws: FramebufferError.unsupportedFormat(.init(
            bitsPerPixel: 16, red: bgr565.red, green: bgr565.green, blue: bgr565.blue, transparency: bgr565.transparency))) {
            try FramebufferGeometry(variable: bgr565, fixed: FixedScreenInfo(memoryLength: 480 * 240, lineLength: 480))
        }
    }

    @Test func paletteAndPlanarFramebuffersAreRefused() {
        #expect(throws: FramebufferError.unsupportedType(type: 0, visual: 3)) {
            try FramebufferGeometry(variable: Self.rgb565, fixed: FixedScreenInfo(memoryLength: 480 * 240, visual: 3, lineLength: 480))
        }
        #expect(throws: FramebufferError.unsupportedType(type: 1, visual: 2)) {
            try FramebufferGeometry(variable: Self.rgb565, fixed: FixedScreenInfo(memoryLength: 480 * 240, type: 1, lineLength: 480))
        }
    }

    @Test func memoryTooSmallForTheGeometryIsRefused() {
        #expect(throws: FramebufferError.tooSmall(name: "fb", length: 1000, required: 480 * 240)) {
            try FramebufferGeometry(variable: Self.rgb565, fixed: FixedScreenInfo(id: "fb", memoryLength: 1000, lineLength: 480))
        }
    }

    @Test func variableInfoDecodesFromTheKernelStruct() throws {
        var words = [UInt32](repeating: 0, count: 40)
        words[0] = 240; words[1] = 240; words[2] = 240; words[3] = 480; words[5] = 240; words[6] = 16
        words[8] = 11; words[9] = 5; words[11] = 5; words[12] = 6; words[14] = 0; words[15] = 5
        let info = try #require(words.withUnsafeBytes { VariableScreenInfo(bytes: $0) })
        #expect(info.xres == 240 && info.yresVirtual == 480 && info.yoffset == 240 && info.bitsPerPixel == 16)
        #expect(info.red == BitField(offset: 11, length: 5) && info.green == BitField(offset: 5, length: 6))
        #expect(words.prefix(39).withUnsafeBytes { VariableScreenInfo(bytes: $0) } == nil)
    }

    @Test(arguments: [(8, 80, 48), (4, 68, 44)])
    func fixedInfoLayoutFollowsTheSizeOfLong(wordSize: Int, size: Int, lineLengthOffset: Int) throws {
        let layout = FixedScreenInfo.Layout(wordSize: wordSize)
        #expect(layout.byteCount == size)
        #expect(layout.lineLength == lineLengthOffset)
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.replaceSubrange(0..<8, with: Array("fb_ili93".utf8))
        func put(_ value: UInt32, at offset: Int) {
            withUnsafeBytes(of: value) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
        }
        put(115_200, at: layout.memoryLength)
        put(2, at: layout.visual)
        put(480, at: lineLengthOffset)
        let info = try #require(bytes.withUnsafeBytes { FixedScreenInfo(bytes: $0, layout: layout) })
        #expect(info == FixedScreenInfo(id: "fb_ili93", memoryLength: 115_200, type: 0, visual: 2, lineLength: 480))
    }

    @Test func nativeLayoutIsTheKernelsOnThisMachine() {
        #expect(FixedScreenInfo.byteCount == (MemoryLayout<Int>.size == 8 ? 80 : 68))
        #expect(VariableScreenInfo.byteCount == 160)
    }
}
