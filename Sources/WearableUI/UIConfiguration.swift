public import Foundation

/// Settings the screens depend on, fixed for the life of the state machine.
public struct UIConfiguration: Hashable, Sendable {
    /// The zone the clock and delivery times are shown in; passed in, never read from the
    /// machine, so tests and a wearable abroad behave alike.
    public var timeZone: TimeZone
    /// The language tag whose plural rules the hidden-preview placeholders use, and whose
    /// words and direction the screens take (`ScreenWords`).
    public var language: String {
        didSet { words = ScreenWords(language: language) }
    }
    /// The screens' own words in `language`.
    public private(set) var words: ScreenWords
    /// How long a short look stays before the screen returns to what it showed.
    public var shortLookDuration: TimeInterval
    /// A 24-hour clock ("21:41") rather than a 12-hour one ("9:41").
    public var twentyFourHourClock: Bool
    /// How long the screen stays on without a key press or an alert before the panel is
    /// blanked; `nil`: never (a file framebuffer, or `display.blank_after_seconds = 0`).
    public var blankAfter: TimeInterval?

    /// Creates a configuration.
    public init(
        timeZone: TimeZone, language: String = "en", shortLookDuration: TimeInterval = 8, twentyFourHourClock: Bool = true,
        blankAfter: TimeInterval? = nil
    ) {
        self.timeZone = timeZone
        self.language = language
        words = ScreenWords(language: language)
        self.shortLookDuration = shortLookDuration
        self.twentyFourHourClock = twentyFourHourClock
        self.blankAfter = blankAfter
    }
}
