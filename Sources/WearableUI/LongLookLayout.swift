import RelayCore
import RelayDisplay
import RelayText

/// The long look's parts: a fixed header, then a scrolling column of title, subtitle, picture,
/// body and buttons.
struct LongLookLayout {
    /// The scrolling area on screen.
    let viewport: Rect
    /// Text blocks with their top in content coordinates.
    let blocks: [(layout: TextLayout, style: TextStyle, top: Int, secondary: Bool)]
    /// The picture's frame in content coordinates, at the size it is drawn.
    let image: Rect?
    /// Buttons' labels and frames in content coordinates.
    let buttons: [(title: String, frame: Rect)]
    /// What the state machine needs.
    let geometry: LongLookGeometry

    /// The tallest a picture is drawn, as a share of the scrolling area: enough to see it, with
    /// the text around it still in view.
    static let imageHeightShare = (numerator: 6, denominator: 10)
    /// How many times a small picture may be enlarged: beyond that it is mostly blur.
    static let imageMaxScale = 2

    init(
        _ content: NotificationContent, image: AttachmentImage?, buttons titles: [String], metrics: LayoutMetrics,
        typesetter: Typesetter
    ) {
        let width = metrics.contentWidth
        viewport = Rect(x: 0, y: metrics.headerHeight, width: metrics.width, height: metrics.height - metrics.headerHeight)
        var blocks: [(TextLayout, TextStyle, Int, Bool)] = []
        var y = metrics.px(2)
        func add(_ text: String, _ style: TextStyle, maxLines: Int?, secondary: Bool, gap: Int) {
            guard !text.isEmpty else { return }
            let layout = typesetter.layout(text, style: style, maxWidth: width, maxLines: maxLines)
            blocks.append((layout, style, y, secondary))
            y += layout.height + gap
        }
        add(content.title, metrics.title, maxLines: 3, secondary: false, gap: metrics.px(2))
        add(content.subtitle, TextStyle(size: metrics.px(16)), maxLines: 2, secondary: true, gap: metrics.px(6))
        if let image {
            if !blocks.isEmpty { y += metrics.px(4) }
            let size = RGBImage.fittedSize(
                width: image.width, height: image.height, maxWidth: width,
                maxHeight: viewport.height * Self.imageHeightShare.numerator / Self.imageHeightShare.denominator,
                maxScale: Self.imageMaxScale)
            self.image = Rect(x: metrics.margin + (width - size.width) / 2, y: y, width: size.width, height: size.height)
            y += size.height + metrics.px(8)
        } else {
            self.image = nil
        }
        add(content.body, metrics.body, maxLines: nil, secondary: false, gap: 0)
        y += metrics.px(14)
        var buttons: [(String, Rect)] = []
        for title in titles {
            buttons.append((title, Rect(x: metrics.margin, y: y, width: width, height: metrics.buttonHeight)))
            y += metrics.buttonHeight + metrics.spacing
        }
        let lineHeight = typesetter.metrics(metrics.body).lineHeight
        self.blocks = blocks
        self.buttons = buttons
        let lineTops = blocks.flatMap { block in
            block.0.lines.indices.map { block.2 + $0 * block.0.metrics.lineHeight }
        }
        geometry = LongLookGeometry(
            viewportHeight: viewport.height, contentHeight: y - metrics.spacing + metrics.margin,
            step: max(lineHeight, viewport.height / 2 / lineHeight * lineHeight),
            buttons: buttons.map { $0.1.y..<$0.1.maxY },
            image: self.image.map { $0.y..<$0.maxY },
            anchors: (lineTops + (self.image.map { [$0.y] } ?? []) + buttons.map(\.1.y)).sorted())
    }
}
