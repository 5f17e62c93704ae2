extension Canvas {
    /// Fills a rectangle with rounded, anti-aliased corners; `radius` is clamped to half the
    /// shorter side, so a square with radius ≥ half its side becomes a circle.
    public mutating func fillRoundedRect(_ rect: Rect, radius: Int, color: Color) {
        let shape = RoundedRect(rect, radius: radius)
        paint(rect, color: color) { x, y in shape.coverage(x: x, y: y) }
    }

    /// Draws the outline of a rounded rectangle `lineWidth` pixels wide, inside `rect`.
    public mutating func strokeRoundedRect(_ rect: Rect, radius: Int, lineWidth: Int, color: Color) {
        let outer = RoundedRect(rect, radius: radius)
        let inner = RoundedRect(rect.insetBy(dx: lineWidth, dy: lineWidth), radius: max(0, radius - lineWidth))
        paint(rect, color: color) { x, y in max(0, outer.coverage(x: x, y: y) - inner.coverage(x: x, y: y)) }
    }

    /// Fills an anti-aliased circle.
    public mutating func fillCircle(centerX: Int, centerY: Int, radius: Int, color: Color) {
        fillRoundedRect(
            Rect(x: centerX - radius, y: centerY - radius, width: 2 * radius, height: 2 * radius), radius: radius,
            color: color)
    }

    /// Blends `color` into every pixel of `rect` with the coverage (0…1) a shape gives it.
    private mutating func paint(_ rect: Rect, color: Color, coverage: (Int, Int) -> Double) {
        let area = rect.intersection(clip)
        guard !area.isEmpty else { return }
        markDirty(area)
        let value = color.rgb
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                blendPixel(x: x, y: y, color: value, alpha: UInt32((coverage(x, y) * 255).rounded()))
            }
        }
    }
}

/// A rounded rectangle's coverage of each pixel, for anti-aliased edges.
private struct RoundedRect {
    let left: Double, top: Double, right: Double, bottom: Double, radius: Double

    init(_ rect: Rect, radius: Int) {
        left = Double(rect.x)
        top = Double(rect.y)
        right = Double(rect.maxX)
        bottom = Double(rect.maxY)
        self.radius = Double(max(0, min(radius, min(rect.width, rect.height) / 2)))
    }

    /// How much of the pixel whose top-left corner is `x`, `y` lies inside, from 0 to 1.
    func coverage(x: Int, y: Int) -> Double {
        guard right > left, bottom > top else { return 0 }
        let centreX = Double(x) + 0.5, centreY = Double(y) + 0.5
        // Straight edges cover whole pixels because the rectangle has integer sides.
        guard centreX > left, centreX < right, centreY > top, centreY < bottom else { return 0 }
        let dx = max(left + radius - centreX, 0, centreX - (right - radius))
        let dy = max(top + radius - centreY, 0, centreY - (bottom - radius))
        if dx == 0 || dy == 0 { return 1 }
        // Inside a corner: the distance from the corner's arc approximates the covered fraction.
        let distance = (dx * dx + dy * dy).squareRoot()
        return min(1, max(0, radius - distance + 0.5))
    }
}
