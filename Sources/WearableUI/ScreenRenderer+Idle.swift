import RelayDisplay
import RelayText

extension ScreenRenderer {
    /// The watch face: link state at the top, the clock and date in the middle, unread count at
    /// the bottom; mirrored for a language written right to left.
    func drawIdle(_ face: ScreenModel.IdleFace, into canvas: inout Canvas) {
        let caption = metrics.caption
        let words = face.words
        // Link state: a coloured dot and a word, centred; the dot comes first in reading order.
        let connected = face.link == .connected
        let label = connected ? words.connected : words.outOfRange
        let dot = metrics.px(4)
        let gap = metrics.px(6)
        let labelWidth = typesetter.width(of: label, style: caption)
        let statusTop = metrics.px(14)
        let statusX = (metrics.width - (2 * dot + gap + labelWidth)) / 2
        let dotX = words.rightToLeft ? statusX + labelWidth + gap + dot : statusX + dot
        let labelX = words.rightToLeft ? statusX : statusX + 2 * dot + gap
        canvas.fillCircle(centerX: dotX, centerY: statusTop + lineHeight(caption) / 2 + metrics.px(1), radius: dot,
                          color: connected ? theme.connected : theme.disconnected)
        line(label, style: caption, x: labelX, top: statusTop, maxWidth: labelWidth, color: theme.secondary, into: &canvas)

        // Do not disturb (by hand or the quiet hours) under the link state, where a glance finds it.
        if face.doNotDisturb {
            line(words.doNotDisturb, style: TextStyle(size: caption.size, weight: .bold), x: metrics.margin,
                 top: statusTop + lineHeight(caption) + metrics.px(4), maxWidth: metrics.contentWidth,
                 alignment: .center, color: theme.focus, into: &canvas)
        }

        // Clock and date, centred a little above the middle so the badge has room below.
        let clock = metrics.clock
        let clockMetrics = typesetter.metrics(clock)
        let timeWidth = typesetter.width(of: face.time, style: clock)
        let periodStyle = TextStyle(size: metrics.px(20), weight: .bold)
        // A period too wide to stand beside the time (Hebrew's "לפנה״צ") ends the date line instead.
        let periodBeside = typesetter.width(of: face.period, style: periodStyle) + metrics.px(4)
        let besideTime = !face.period.isEmpty && timeWidth + periodBeside <= metrics.contentWidth
        let periodWidth = besideTime ? periodBeside : 0
        let clockX = (metrics.width - timeWidth - periodWidth) / 2
        let baseline = metrics.height * 47 / 100 + clockMetrics.ascent / 2
        // The period follows the time in reading order: to its left when mirrored.
        let timeX = words.rightToLeft ? clockX + periodWidth : clockX
        typesetter.draw(face.time, style: clock, x: timeX, baseline: baseline, color: theme.primary, into: &canvas)
        if besideTime {
            let periodX = words.rightToLeft ? clockX : clockX + timeWidth + metrics.px(4)
            typesetter.draw(face.period, style: periodStyle, x: periodX, baseline: baseline, color: theme.secondary, into: &canvas)
        }
        let date = besideTime || face.period.isEmpty ? face.date : "\(face.date) · \(face.period)"
        line(date, style: metrics.date, x: metrics.margin, top: baseline + metrics.px(10),
             maxWidth: metrics.contentWidth, alignment: .center, color: theme.secondary, into: &canvas)

        // Unread notifications: a red pill, or a quiet line when there are none.
        let bottom = metrics.height - metrics.px(16)
        guard face.unread > 0 else {
            line(words.noNewNotifications, style: caption, x: metrics.margin, top: bottom - lineHeight(caption),
                 maxWidth: metrics.contentWidth, alignment: .center, color: theme.secondary, into: &canvas)
            return
        }
        let text = words.newNotifications(face.unread)
        let style = TextStyle(size: caption.size, weight: .bold)
        let height = metrics.px(28)
        let width = min(metrics.contentWidth, typesetter.width(of: text, style: style) + metrics.px(24))
        let pill = Rect(x: (metrics.width - width) / 2, y: bottom - height, width: width, height: height)
        canvas.fillRoundedRect(pill, radius: height / 2, color: theme.destructive)
        line(text, style: style, x: pill.x + metrics.px(12), top: pill.y + (height - lineHeight(style)) / 2,
             maxWidth: width - metrics.px(24), alignment: .center, color: theme.primary, into: &canvas)
    }
}
