import RelayDisplay
import RelayText

/// The pieces the screens are built from.
extension ScreenRenderer {
    /// Draws one line, its top at `top`, cut with "…" to `maxWidth`; returns the width drawn.
    @discardableResult
    func line(
        _ text: String, style: TextStyle, x: Int, top: Int, maxWidth: Int, alignment: TextAlignment = .leading,
        color: Color, into canvas: inout Canvas
    ) -> Int {
        let shown = typesetter.line(text, style: style, maxWidth: maxWidth)
        let baseline = top + typesetter.metrics(style).ascent
        typesetter.draw(shown, style: style, x: x, baseline: baseline, width: maxWidth, alignment: alignment, color: color, into: &canvas)
        return shown.width
    }

    /// The height of one line of a style.
    func lineHeight(_ style: TextStyle) -> Int { typesetter.metrics(style).lineHeight }

    /// A header line: `left` in a tint, `right` (a time) in the secondary colour; `mirrored`
    /// swaps their sides for a language written right to left.
    func header(left: String, tint: Color, right: String, mirrored: Bool = false, into canvas: inout Canvas) {
        let style = metrics.caption
        let top = (metrics.headerHeight - lineHeight(style)) / 2 + metrics.px(2)
        let rightWidth = right.isEmpty ? 0 : typesetter.width(of: right, style: style)
        let gap = right.isEmpty ? 0 : metrics.px(8)
        let titleWidth = metrics.contentWidth - rightWidth - gap
        line(right, style: style, x: mirrored ? metrics.margin : metrics.width - metrics.margin - rightWidth, top: top,
             maxWidth: rightWidth, color: theme.secondary, into: &canvas)
        line(left, style: TextStyle(size: style.size, weight: .bold), x: mirrored ? metrics.margin + rightWidth + gap : metrics.margin,
             top: top, maxWidth: titleWidth, alignment: mirrored ? .right : .leading, color: tint, into: &canvas)
    }

    /// A full-width button; the focused one is filled with the focus colour.
    func button(_ title: String, frame: Rect, focused: Bool, destructive: Bool = false, into canvas: inout Canvas) {
        canvas.fillRoundedRect(frame, radius: metrics.cornerRadius, color: focused ? theme.focus : theme.surface)
        let style = metrics.button
        let color = destructive && !focused ? theme.destructive : theme.primary
        let padding = metrics.px(10)
        line(title, style: style, x: frame.x + padding, top: frame.y + (frame.height - lineHeight(style)) / 2,
             maxWidth: frame.width - 2 * padding, alignment: .center, color: color, into: &canvas)
    }

    /// A thin bar at the right edge showing which part of `contentHeight` is in view.
    func scrollIndicator(viewport: Rect, scroll: Int, contentHeight: Int, into canvas: inout Canvas) {
        guard contentHeight > viewport.height else { return }
        let inset = metrics.px(4)
        let track = Rect(x: viewport.maxX - metrics.px(5), y: viewport.y + inset, width: metrics.px(3), height: viewport.height - 2 * inset)
        let thumbHeight = max(metrics.px(12), track.height * viewport.height / contentHeight)
        let travel = track.height - thumbHeight
        let thumbTop = track.y + travel * scroll / max(1, contentHeight - viewport.height)
        canvas.fillRoundedRect(track, radius: track.width / 2, color: theme.surface)
        canvas.fillRoundedRect(Rect(x: track.x, y: thumbTop, width: track.width, height: thumbHeight),
                               radius: track.width / 2, color: theme.secondary)
    }

    /// The width of `countBadge`'s badge for a number.
    func countBadgeWidth(_ count: Int) -> Int {
        max(metrics.px(20), typesetter.width(of: String(count), style: countBadgeStyle) + metrics.px(12))
    }

    /// A rounded badge with a number, its left edge at `x`.
    func countBadge(_ count: Int, x: Int, centerY: Int, into canvas: inout Canvas) {
        let height = metrics.px(20)
        let width = countBadgeWidth(count)
        let frame = Rect(x: x, y: centerY - height / 2, width: width, height: height)
        canvas.fillRoundedRect(frame, radius: height / 2, color: theme.secondary)
        line(String(count), style: countBadgeStyle, x: frame.x, top: frame.y + (height - lineHeight(countBadgeStyle)) / 2,
             maxWidth: width, alignment: .center, color: theme.background, into: &canvas)
    }

    private var countBadgeStyle: TextStyle { TextStyle(size: metrics.px(14), weight: .bold) }

    /// The first visible pixel of a list whose `selected` row (of `count`, each `pitch` tall)
    /// should be in view: centred where possible, as a crown-scrolled list keeps it.
    func listScroll(selected: Int, count: Int, pitch: Int, viewport: Int) -> Int {
        let content = count * pitch
        guard content > viewport else { return 0 }
        let centred = selected * pitch + pitch / 2 - viewport / 2
        return min(max(centred, 0), content - viewport)
    }
}
