public import RelayDisplay

/// The screens' colours: light text on black, which is legible in sunlight on small panels and
/// keeps OLED panels dark.
public struct Theme: Hashable, Sendable {
    /// The background.
    public var background = Color(rgb: 0x000000)
    /// Titles and body text.
    public var primary = Color(rgb: 0xFFFFFF)
    /// Subtitles, times, hints.
    public var secondary = Color(rgb: 0xA1A1A8)
    /// Buttons and list rows.
    public var surface = Color(rgb: 0x26262A)
    /// The focused button or row.
    public var focus = Color(rgb: 0x0A84FF)
    /// Destructive actions and the unread badge.
    public var destructive = Color(rgb: 0xFF453A)
    /// The link indicator while connected.
    public var connected = Color(rgb: 0x30D158)
    /// The link indicator while out of range.
    public var disconnected = Color(rgb: 0xFF9F0A)
    /// Colours that tint app names, chosen by the name so each app keeps its colour.
    public var appTints = [0x5AC8FA, 0xFF9F0A, 0x30D158, 0xBF5AF2, 0xFF6482, 0xFFD60A].map { Color(rgb: UInt32($0)) }

    /// The default theme.
    public static let standard = Theme()

    /// An app's tint, stable across runs (unlike `hashValue`, which is seeded per process).
    public func tint(forApp name: String) -> Color {
        let sum = name.unicodeScalars.reduce(UInt32(0)) { $0 &* 31 &+ $1.value }
        return appTints[Int(sum % UInt32(appTints.count))]
    }
}
