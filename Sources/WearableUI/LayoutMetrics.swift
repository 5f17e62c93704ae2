public import RelayText

/// Sizes of everything on screen, scaled from a 240-pixel design to the panel's shorter side,
/// so a 128×128 or 320×240 panel gets the same layout in proportion.
public struct LayoutMetrics: Hashable, Sendable {
    /// Screen width in pixels.
    public let width: Int
    /// Screen height in pixels.
    public let height: Int
    /// Pixels per design pixel.
    public let scale: Double

    /// Creates metrics for a screen.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        scale = Double(max(1, min(width, height))) / 240
    }

    /// A design length (for a 240-pixel screen) in pixels on this one; never below 1.
    public func px(_ design: Double) -> Int { max(1, Int((design * scale).rounded())) }

    /// Space between the screen's edge and content.
    public var margin: Int { px(12) }
    /// The width available to content between the margins.
    public var contentWidth: Int { width - 2 * margin }

    /// App names, times, hints.
    public var caption: TextStyle { TextStyle(size: px(15)) }
    /// Body text.
    public var body: TextStyle { TextStyle(size: px(18)) }
    /// Notification titles in lists and long looks.
    public var title: TextStyle { TextStyle(size: px(19), weight: .bold) }
    /// The short look's title.
    public var headline: TextStyle { TextStyle(size: px(25), weight: .bold) }
    /// Button labels.
    public var button: TextStyle { TextStyle(size: px(18), weight: .bold) }
    /// The watch face's clock.
    public var clock: TextStyle { TextStyle(size: px(66), weight: .bold) }
    /// The watch face's date.
    public var date: TextStyle { TextStyle(size: px(20)) }
    /// The pairing code.
    public var code: TextStyle { TextStyle(size: px(42), weight: .bold) }

    /// The fixed header at the top of the long look, text reply and lists.
    public var headerHeight: Int { px(30) }
    /// A button's height.
    public var buttonHeight: Int { px(40) }
    /// Space between buttons and list rows.
    public var spacing: Int { px(7) }
    /// Corner radius of buttons and rows.
    public var cornerRadius: Int { px(12) }
    /// A list row's height: title and one line of detail.
    public var rowHeight: Int { px(58) }
}
