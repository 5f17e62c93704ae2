extension FramebufferGeometry {
    /// `FB_TYPE_PACKED_PIXELS`.
    static let packedPixels: UInt32 = 0
    /// `FB_VISUAL_TRUECOLOR` and `FB_VISUAL_DIRECTCOLOR`: pixels are colours, not palette indices.
    static let colourVisuals: Set<UInt32> = [2, 4]

    /// Decides the layout from what the driver reports, refusing anything Relay cannot draw.
    ///
    /// This is the whole of the fbdev logic that does not need a device, so it is tested with
    /// struct values; opening `/dev/fbN` only adds the two ioctls and `mmap`.
    public init(variable: VariableScreenInfo, fixed: FixedScreenInfo) throws(FramebufferError) {
        guard fixed.type == Self.packedPixels, Self.colourVisuals.contains(fixed.visual) else {
            throw .unsupportedType(type: fixed.type, visual: fixed.visual)
        }
        let format = try Self.format(of: variable)
        let bytesPerPixel = format.bytesPerPixel
        // A driver that leaves line_length at zero has unpadded rows of the virtual width.
        let stride = fixed.lineLength != 0 ? Int(fixed.lineLength) : Int(variable.xresVirtual) * bytesPerPixel
        self.init(
            width: Int(variable.xres), height: Int(variable.yres), format: format, stride: stride,
            offset: Int(variable.yoffset) * stride + Int(variable.xoffset) * bytesPerPixel)
        try validate()
        guard requiredLength <= Int(fixed.memoryLength) else {
            throw .tooSmall(name: fixed.id, length: Int(fixed.memoryLength), required: requiredLength)
        }
    }

    /// The pixel format of the channel layout, or the error naming it.
    static func format(of info: VariableScreenInfo) throws(FramebufferError) -> PixelFormat {
        let channels = (info.red, info.green, info.blue)
        let noFlips = info.red.msbRight == 0 && info.green.msbRight == 0 && info.blue.msbRight == 0
        if info.grayscale == 0 && noFlips {
            if info.bitsPerPixel == 16, channels == (BitField(offset: 11, length: 5), BitField(offset: 5, length: 6), BitField(offset: 0, length: 5)) {
                return .rgb565
            }
            if info.bitsPerPixel == 32, channels == (BitField(offset: 16, length: 8), BitField(offset: 8, length: 8), BitField(offset: 0, length: 8)) {
                return .xrgb8888
            }
        }
        throw .unsupportedFormat(.init(
            bitsPerPixel: info.bitsPerPixel, red: info.red, green: info.green, blue: info.blue,
            transparency: info.transparency))
    }
}
