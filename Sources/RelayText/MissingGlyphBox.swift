import RelayDisplay

/// The box drawn for a grapheme no font can draw: an outlined rectangle the height of a capital
/// letter, so a missing emoji reads as "something is here" instead of vanishing.
struct MissingGlyphBox {
    let width: Int
    let height: Int
    let bearing: Int
    let lineWidth: Int

    init(size: Int) {
        width = max(3, size * 6 / 10)
        height = max(4, size * 7 / 10)
        bearing = max(1, size / 12)
        lineWidth = max(1, size / 14)
    }

    /// How far the pen moves past the box.
    var advance: Int { width + 2 * bearing }

    func draw(x: Int, baseline: Int, color: Color, into canvas: inout Canvas) {
        let box = Rect(x: x + bearing, y: baseline - height, width: width, height: height)
        canvas.strokeRoundedRect(box, radius: 0, lineWidth: lineWidth, color: color)
    }
}
