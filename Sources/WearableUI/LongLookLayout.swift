import RelayCore
import RelayDisplay
import RelayText

/// The long look's parts: a fixed header, then a scrolling column of title, subtitle, body and
/// buttons.
struct LongLookLayout {
    /// The scrolling area on screen.
    let viewport: Rect
    /// Text blocks with their top in content coordinates.
    let blocks: [(layout: TextLayout, style: TextStyle, top: Int, secondary: Bool)]
    /// Buttons' labels and frames in content coordinates.
    let buttons: [(title: String, frame: Rect)]
    /// What the state machine needs.
    let geometry: LongLookGeometry

    init(_ content: NotificationContent, buttons titles: [String], metrics: LayoutMetrics, typesetter: Typesetter) {
        let width = metrics.contentWidth
        viewport = Rect(x: 0, y: metrics.headerHeight, width: metrics.width, height: metrics.height - metrics.headerHeight)
        var blocks: [(TextLayout, TextStyle, Int, Bool)] = []
        var y = metrics.px(2)
        let subtitleStyle = TextStyle(size: metrics.px(16))
        for (text, style, maxLines, secondary, gap) in [
            (content.title, metrics.title, 3, false, metrics.px(2)),
            (content.subtitle, subtitleStyle, 2, true, metrics.px(6)),
            (content.body, metrics.body, nil, false, 0),
        ] where !text.isEmpty {
            let layout = typesetter.layout(text, style: style, maxWidth: width, maxLines: maxLines)
            blocks.append((layout, style, y, secondary))
            y += layout.height + gap
        }
        y += metrics.px(14)
        var buttons: [(String, Rect)] = []
        for title in titles {
            buttons.append((title, Rect(x: metrics.margin, y: y, width: width, height: metrics.buttonHeight)))
            y += metrics.buttonHeight + metrics.spacing
        }
        let lineHeight = typesetter.metrics(metrics.body).lineHeight
        self.blocks = blocks
        self.buttons = buttons
        geometry = LongLookGeometry(
            viewportHeight: viewport.height, contentHeight: y - metrics.spacing + metrics.margin,
            step: max(lineHeight, viewport.height / 2 / lineHeight * lineHeight),
            buttons: buttons.map { $0.1.y..<$0.1.maxY },
            anchors: blocks.flatMap { block in
                block.0.lines.indices.map { block.2 + $0 * block.0.metrics.lineHeight }
            } + buttons.map(\.1.y))
    }
}
