extension Framebuffer {
    /// Writes what changed on the canvas to the screen and returns the rectangles of pixels that
    /// actually differed (empty when nothing did).
    ///
    /// Only the canvas's dirty areas are converted, and within them only pixels whose converted
    /// value differs from what the memory already holds are stored. Reading is free on fbtft's
    /// deferred-I/O memory while every written page is sent over SPI, so an unchanged clock face
    /// costs no bus traffic even when it was redrawn.
    @discardableResult
    public func present(_ canvas: inout Canvas) -> [Rect] {
        let screen = Rect(x: 0, y: 0, width: geometry.width, height: geometry.height)
        var written = DirtyRegion()
        for area in canvas.takeDirty().rects {
            let visible = area.intersection(screen)
            guard !visible.isEmpty else { continue }
            written.add(write(canvas, area: visible))
        }
        return written.rects
    }

    /// Writes every pixel of the canvas, whether dirty or not (after the panel was reset).
    public func presentAll(_ canvas: inout Canvas) {
        canvas.markDirty(canvas.bounds)
        let screen = Rect(x: 0, y: 0, width: geometry.width, height: geometry.height)
        for area in canvas.takeDirty().rects {
            let visible = area.intersection(screen)
            guard !visible.isEmpty else { continue }
            write(canvas, area: visible, force: true)
        }
    }

    /// Converts and stores one area; returns the bounding box of the pixels that changed.
    @discardableResult
    private func write(_ canvas: Canvas, area: Rect, force: Bool = false) -> Rect {
        switch geometry.format {
        case .rgb565:
            write(canvas, area: area, force: force, as: UInt16.self) { UInt16(truncatingIfNeeded: PixelFormat.rgb565.encode($0)) }
        case .xrgb8888:
            write(canvas, area: area, force: force, as: UInt32.self) { PixelFormat.xrgb8888.encode($0) }
        }
    }

    /// The loop of `write` for one pixel size, so that the format is chosen once per area
    /// rather than for every pixel: a short look rewrites most of the screen.
    @inline(__always)
    private func write<Pixel: FixedWidthInteger>(
        _ canvas: Canvas, area: Rect, force: Bool, as: Pixel.Type, encode: (UInt32) -> Pixel
    ) -> Rect {
        var changed = Rect.zero
        canvas.pixels.withUnsafeBufferPointer { pixels in
            for y in area.y..<area.maxY {
                let row = base.advanced(by: address(x: area.x, y: y))
                let source = y * canvas.width
                var first = Int.max, last = Int.min
                for x in area.x..<area.maxX {
                    let value = encode(pixels[source + x])
                    let offset = (x - area.x) * MemoryLayout<Pixel>.size
                    if force || row.loadUnaligned(fromByteOffset: offset, as: Pixel.self) != value {
                        row.storeBytes(of: value, toByteOffset: offset, as: Pixel.self)
                        first = min(first, x)
                        last = x
                    }
                }
                if first <= last { changed = changed.union(Rect(x: first, y: y, width: last - first + 1, height: 1)) }
            }
        }
        return changed
    }
}
