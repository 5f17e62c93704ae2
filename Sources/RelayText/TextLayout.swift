/// Text broken into lines that fit a width.
public struct TextLayout: Hashable, Sendable {
    /// The lines, top to bottom; a truncated last line ends in "…".
    public var lines: [TextLine]
    /// The style's vertical metrics.
    public var metrics: LineMetrics

    /// The height of all lines.
    public var height: Int { lines.count * metrics.lineHeight }
    /// The widest line's width.
    public var width: Int { lines.map(\.width).max() ?? 0 }
    /// Whether text was cut off to respect the line limit.
    public var isTruncated: Bool { lines.last?.isTruncated ?? false }
}

/// One line of laid-out text.
public struct TextLine: Hashable, Sendable {
    /// What the line shows, "…" included.
    public var text: String
    /// Its width in pixels.
    public var width: Int
    /// Whether it ends in an ellipsis standing for cut-off text.
    public var isTruncated: Bool
    /// Whether its paragraph runs right to left (Hebrew, Arabic): it is then aligned to the right
    /// and its ellipsis, at its logical end, stands on the left.
    public var isRightToLeft: Bool = false
}
