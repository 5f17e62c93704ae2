import RelayDisplay
import RelayText

extension ScreenRenderer {
    /// The short look: the app's badge, the title and the app name, centred.
    func drawShortLook(_ look: ScreenModel.ShortLook, into canvas: inout Canvas) {
        let tint = theme.tint(forApp: look.appName)
        let radius = metrics.px(30)
        let titleStyle = metrics.headline
        let width = metrics.contentWidth
        let title = typesetter.layout(look.title, style: titleStyle, maxWidth: width, maxLines: look.placeholder == nil ? 3 : 2)
        let placeholder = look.placeholder.map { typesetter.layout($0, style: metrics.body, maxWidth: width, maxLines: 2) }
        let gap = metrics.px(10)
        let appHeight = lineHeight(metrics.caption)
        let total = 2 * radius + gap + title.height + (placeholder.map { $0.height + metrics.px(4) } ?? 0) + metrics.px(4) + appHeight
        var y = max(metrics.px(8), (metrics.height - total) / 2)

        // The app's "icon": its initial on its tint, since the wearable has no app icons.
        canvas.fillCircle(centerX: metrics.width / 2, centerY: y + radius, radius: radius, color: tint)
        let initial = look.appName.first.map { String($0).uppercased() } ?? "?"
        let initialStyle = TextStyle(size: metrics.px(30), weight: .bold)
        line(initial, style: initialStyle, x: metrics.width / 2 - radius, top: y + radius - lineHeight(initialStyle) / 2,
             maxWidth: 2 * radius, alignment: .center, color: theme.background, into: &canvas)
        y += 2 * radius + gap

        typesetter.draw(title, style: titleStyle, x: metrics.margin, top: y, width: width, alignment: .center,
                        color: theme.primary, into: &canvas)
        y += title.height
        if let placeholder {
            y += metrics.px(4)
            typesetter.draw(placeholder, style: metrics.body, x: metrics.margin, top: y, width: width, alignment: .center,
                            color: theme.secondary, into: &canvas)
            y += placeholder.height
        }
        let app = look.more > 0 ? "\(look.appName) · and \(look.more) more" : look.appName
        line(app, style: metrics.caption, x: metrics.margin, top: y + metrics.px(4), maxWidth: width,
             alignment: .center, color: tint, into: &canvas)
    }

    /// The long look: a fixed header (app, time) over a scrolling column of title, subtitle,
    /// picture, body and buttons.
    func drawLongLook(_ look: ScreenModel.LongLook, into canvas: inout Canvas) {
        let content = layout.longLook(look.notification, buttons: look.buttons, image: look.image)
        let viewport = content.viewport
        let origin = viewport.y - look.position.scroll
        canvas.clip = viewport
        for block in content.blocks {
            let lineHeight = block.layout.metrics.lineHeight
            for (index, textLine) in block.layout.lines.enumerated() {
                let top = origin + block.top + index * lineHeight
                // Lines wholly outside the viewport are skipped rather than clipped glyph by glyph.
                guard top + lineHeight > viewport.y, top < viewport.maxY else { continue }
                typesetter.draw(
                    textLine, style: block.style, x: metrics.margin, baseline: top + block.layout.metrics.ascent, width: metrics.contentWidth,
                    color: block.secondary ? theme.secondary : theme.primary, into: &canvas)
            }
        }
        if let image = look.image, var frame = content.image {
            frame.y += origin
            if frame.maxY > viewport.y, frame.y < viewport.maxY { attachment(image, frame: frame, into: &canvas) }
        }
        for (index, button) in content.buttons.enumerated() {
            var frame = button.frame
            frame.y += origin
            guard frame.maxY > viewport.y, frame.y < viewport.maxY else { continue }
            let destructive: Bool
            switch look.buttons[index] {
            case .action(let action): destructive = action.options.contains(.destructive)
            case .openOnPhone, .clear, .dismiss, .mute: destructive = false
            }
            self.button(button.title, frame: frame, focused: look.position.focus == index, destructive: destructive, into: &canvas)
        }
        canvas.clip = canvas.bounds
        scrollIndicator(viewport: viewport, scroll: look.position.scroll, contentHeight: content.geometry.contentHeight, into: &canvas)
        header(left: look.appName, tint: theme.tint(forApp: look.appName), right: look.time, into: &canvas)
    }
}
