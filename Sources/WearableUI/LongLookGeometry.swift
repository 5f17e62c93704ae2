/// The long look's vertical layout, as the state machine needs it to bound scrolling and move
/// the focus: how tall the content is, how much shows at once, and where the buttons are.
public struct LongLookGeometry: Hashable, Sendable {
    /// The height of the scrolling area.
    public var viewportHeight: Int
    /// The height of everything in it.
    public var contentHeight: Int
    /// How far one key press scrolls.
    public var step: Int
    /// Each button's vertical extent in content coordinates.
    public var buttons: [Range<Int>]
    /// The picture's vertical extent in content coordinates; `nil` without one.
    public var image: Range<Int>?
    /// The tops of text lines, the picture and buttons, ascending: scrolling stops at these so that the top
    /// line in view is never cut in half.
    public var anchors: [Int]

    /// Creates a geometry from its figures; `anchors` ascending.
    public init(viewportHeight: Int, contentHeight: Int, step: Int, buttons: [Range<Int>], image: Range<Int>?, anchors: [Int]) {
        self.viewportHeight = viewportHeight
        self.contentHeight = contentHeight
        self.step = step
        self.buttons = buttons
        self.image = image
        self.anchors = anchors
    }

    /// The furthest the content can scroll.
    public var maxScroll: Int { max(0, contentHeight - viewportHeight) }

    /// The scroll position one Down press further: about `step` on, at a line's top, never past
    /// the end.
    public func scrolledDown(from scroll: Int) -> Int {
        let target = min(scroll + step, maxScroll)
        guard target < maxScroll else { return maxScroll }
        return anchors.last { $0 > scroll && $0 <= target } ?? target
    }

    /// The scroll position one Up press back, at a line's top, never before the start.
    public func scrolledUp(from scroll: Int) -> Int {
        let target = max(scroll - step, 0)
        guard target > 0 else { return 0 }
        return anchors.first { $0 >= target && $0 < scroll } ?? target
    }

    /// Whether a button is entirely within the viewport at a scroll position.
    public func isFullyVisible(button index: Int, scroll: Int) -> Bool {
        guard buttons.indices.contains(index) else { return false }
        return buttons[index].lowerBound >= scroll && buttons[index].upperBound <= scroll + viewportHeight
    }

    /// The scroll position closest to `scroll` that shows a button entirely.
    public func scroll(toShow index: Int, from scroll: Int) -> Int {
        guard buttons.indices.contains(index) else { return scroll }
        let button = buttons[index]
        var target = scroll
        if button.upperBound > target + viewportHeight { target = button.upperBound - viewportHeight }
        if button.lowerBound < target { target = button.lowerBound }
        return min(max(target, 0), maxScroll)
    }
}
