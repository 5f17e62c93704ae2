/// The size and weight text is set in.
public struct TextStyle: Hashable, Sendable {
    /// The font size in pixels (the em square).
    public var size: Int
    /// Regular or bold.
    public var weight: FontWeight

    /// Creates a style; sizes below 4 pixels are raised to 4, as nothing smaller is legible.
    public init(size: Int, weight: FontWeight = .regular) {
        self.size = max(4, size)
        self.weight = weight
    }
}

/// Vertical metrics of a style, from its primary font, so a line's height does not jump when a
/// fallback glyph appears in it.
public struct LineMetrics: Hashable, Sendable {
    /// From the top of the line to the baseline.
    public var ascent: Int
    /// From the baseline to the bottom of the line.
    public var descent: Int
    /// From one baseline to the next.
    public var lineHeight: Int
}
