import RelayDisplay
import RelayText

extension ScreenRenderer {
    /// The pairing code with Reject and Confirm, or a waiting line once answered.
    func drawPairing(_ pairing: PairingPosition, into canvas: inout Canvas) {
        let width = metrics.contentWidth
        // Bluetooth's passkey comes first, Relay's code after it: the titles tell the two apart.
        let (title, hintText) =
            pairing.isBluetoothPasskey
            ? ("Bluetooth pairing", "Confirm if the phone shows the same passkey")
            : ("Pair with phone?", "Confirm if the phone shows the same code")
        line(title, style: metrics.title, x: metrics.margin, top: metrics.px(16), maxWidth: width,
             alignment: .center, color: theme.primary, into: &canvas)
        let hint = typesetter.layout(hintText, style: metrics.caption, maxWidth: width, maxLines: 2)
        typesetter.draw(hint, style: metrics.caption, x: metrics.margin, top: metrics.px(44), width: width, alignment: .center,
                        color: theme.secondary, into: &canvas)

        let codeTop = metrics.px(44) + hint.height + metrics.px(12)
        line(Self.grouped(pairing.code), style: metrics.code, x: metrics.margin,
             top: codeTop, maxWidth: width, alignment: .center, color: theme.primary, into: &canvas)

        let buttonTop = metrics.height - metrics.margin - metrics.buttonHeight
        guard !pairing.answered else {
            line("Waiting for the phone…", style: metrics.body, x: metrics.margin,
                 top: buttonTop + (metrics.buttonHeight - lineHeight(metrics.body)) / 2, maxWidth: width,
                 alignment: .center, color: theme.secondary, into: &canvas)
            return
        }
        let gap = metrics.spacing
        let half = (width - gap) / 2
        button("Reject", frame: Rect(x: metrics.margin, y: buttonTop, width: half, height: metrics.buttonHeight),
               focused: !pairing.confirmFocused, destructive: true, into: &canvas)
        button("Confirm", frame: Rect(x: metrics.margin + half + gap, y: buttonTop, width: half, height: metrics.buttonHeight),
               focused: pairing.confirmFocused, into: &canvas)
    }

    /// "123456" as "123 456", which is easier to compare at a glance.
    static func grouped(_ code: String) -> String {
        guard code.count == 6, code.allSatisfy(\.isASCII) else { return code }
        return "\(code.prefix(3)) \(code.suffix(3))"
    }
}
