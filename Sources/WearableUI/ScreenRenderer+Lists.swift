import RelayDisplay
import RelayText

extension ScreenRenderer {
    /// The notification list (threads with counts) or one thread's notifications.
    func drawList(_ list: ScreenModel.NotificationList, into canvas: inout Canvas) {
        let viewport = Rect(x: 0, y: metrics.headerHeight, width: metrics.width, height: metrics.height - metrics.headerHeight)
        let pitch = metrics.rowHeight + metrics.spacing
        let scroll = listScroll(selected: list.selection, count: list.rows.count, pitch: pitch, viewport: viewport.height)
        canvas.clip = viewport
        for (index, row) in list.rows.enumerated() {
            let frame = Rect(x: metrics.margin, y: viewport.y + index * pitch - scroll, width: metrics.contentWidth, height: metrics.rowHeight)
            guard frame.maxY > viewport.y, frame.y < viewport.maxY else { continue }
            drawRow(row, frame: frame, selected: index == list.selection, mirrored: list.rightToLeft, into: &canvas)
        }
        canvas.clip = canvas.bounds
        header(left: list.title, tint: theme.primary, right: list.time, mirrored: list.rightToLeft, into: &canvas)
    }

    /// One row: a tinted edge for the app, the title with the thread's count, and the detail.
    /// Laid out for left-to-right reading, then mirrored whole for right to left: the edge on
    /// the right, the count and the unread dot on the left, the text flush right.
    private func drawRow(_ row: ScreenModel.ListRow, frame: Rect, selected: Bool, mirrored: Bool, into canvas: inout Canvas) {
        // A span `x ..< x + width` of the row as the left-to-right layout places it, where it goes.
        func placed(_ x: Int, _ width: Int) -> Int { mirrored ? frame.x + frame.maxX - x - width : x }
        let radius = metrics.cornerRadius
        canvas.fillRoundedRect(frame, radius: radius, color: theme.surface)
        let edge = metrics.px(4)
        canvas.fillRoundedRect(Rect(x: placed(frame.x + metrics.px(6), edge), y: frame.y + metrics.px(10), width: edge, height: frame.height - metrics.px(20)),
                               radius: edge / 2, color: theme.tint(forApp: row.appName))
        if selected {
            canvas.strokeRoundedRect(frame, radius: radius, lineWidth: metrics.px(2), color: theme.focus)
        }
        let left = frame.x + metrics.px(16)
        let right = frame.maxX - metrics.px(10)
        let titleStyle = TextStyle(size: metrics.px(17), weight: .bold)
        let detailStyle = metrics.caption
        let titleTop = frame.y + metrics.px(8)
        let alignment: TextAlignment = mirrored ? .right : .leading
        var titleRight = right
        if row.count > 1 {
            let badge = countBadgeWidth(row.count)
            countBadge(row.count, x: placed(right - badge, badge), centerY: titleTop + lineHeight(titleStyle) / 2, into: &canvas)
            titleRight -= badge + metrics.px(6)
        }
        if row.unread {
            let dot = metrics.px(3)
            canvas.fillCircle(centerX: placed(frame.maxX - metrics.px(10) - 2 * dot, 2 * dot) + dot, centerY: frame.maxY - metrics.px(12) - dot,
                              radius: dot, color: theme.focus)
        }
        line(row.title, style: titleStyle, x: placed(left, titleRight - left), top: titleTop, maxWidth: titleRight - left,
             alignment: alignment, color: theme.primary, into: &canvas)
        let detailWidth = right - left - (row.unread ? metrics.px(12) : 0)
        line(row.detail, style: detailStyle, x: placed(left, detailWidth), top: titleTop + lineHeight(titleStyle) + metrics.px(2),
             maxWidth: detailWidth, alignment: alignment, color: theme.secondary, into: &canvas)
    }

    /// A menu (the suggested replies of a text-input action, the mute menu, the controls);
    /// Select takes the highlighted choice.
    func drawMenu(_ reply: ScreenModel.Menu, into canvas: inout Canvas) {
        let hintStyle = metrics.caption
        let hintHeight = lineHeight(hintStyle) + metrics.px(10)
        let viewport = Rect(x: 0, y: metrics.headerHeight, width: metrics.width,
                            height: metrics.height - metrics.headerHeight - hintHeight)
        let pitch = metrics.buttonHeight + metrics.spacing
        let scroll = listScroll(selected: reply.selection, count: reply.choices.count, pitch: pitch, viewport: viewport.height)
        canvas.clip = viewport
        for (index, text) in reply.choices.enumerated() {
            let frame = Rect(x: metrics.margin, y: viewport.y + index * pitch - scroll, width: metrics.contentWidth, height: metrics.buttonHeight)
            guard frame.maxY > viewport.y, frame.y < viewport.maxY else { continue }
            button(text, frame: frame, focused: index == reply.selection, into: &canvas)
        }
        canvas.clip = canvas.bounds
        line("Select to \(reply.buttonTitle)", style: hintStyle, x: metrics.margin, top: viewport.maxY + metrics.px(4),
             maxWidth: metrics.contentWidth, alignment: .center, color: theme.secondary, into: &canvas)
        header(left: reply.title, tint: theme.focus, right: reply.time, into: &canvas)
    }
}
