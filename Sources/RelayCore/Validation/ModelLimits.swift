/// The size limits of the model, chosen so that a notification fits comfortably in a
/// few link frames and on a small screen. Docs/MODEL.md lists them; text limits are
/// counted in UTF-8 bytes.
public enum ModelLimits {
    /// Identifiers of requests, categories, actions, threads and attachments.
    public static let identifierBytes = 256
    /// A title or subtitle.
    public static let titleBytes = 256
    /// A body.
    public static let bodyBytes = 4096
    /// User info, measured as its canonical JSON encoding.
    public static let userInfoBytes = 4096
    /// Attachments on one notification.
    public static let attachments = 10
    /// An attachment's URL.
    public static let urlBytes = 1024
    /// An action's identifier: it travels with every category and every response.
    public static let actionIdentifierBytes = 64
    /// Actions in one category.
    public static let actionsPerCategory = 10
    /// An action's title, a text input's button title or placeholder, a suggested reply.
    public static let actionTextBytes = 128
    /// Suggested replies on one text-input action: a small screen shows a handful, and it
    /// keeps a whole category within one link frame.
    public static let suggestedReplies = 6
    /// Each form of a placeholder or summary format.
    public static let placeholderBytes = 256
    /// The text a user sends with a text-input action.
    public static let userTextBytes = 4096
    /// The shortest repeating time interval, as Apple requires.
    public static let minimumRepeatInterval: Double = 60
    /// The longest time interval: ten years.
    public static let maximumTimeInterval: Double = 10 * 366 * 86_400
    /// Delivered notifications the phone keeps per app (and per API): a newer one closes the
    /// oldest, as expired, so that an app that never lets the user's list go does not grow the
    /// phone's and the wearable's memory and storage without end.
    public static let deliveredPerApp = 1_000
    /// Delivered notifications the phone keeps in all: the bound when apps are many (a client
    /// names its app as it likes), closing the one posted or updated longest ago, of any app.
    public static let deliveredOverall = 10_000
    /// Scheduled requests one app may have pending, as on Apple's platforms.
    public static let pendingRequestsPerApp = 64
    /// Scheduled requests pending in all: the bound when apps are many (a client names its app
    /// as it likes).
    public static let pendingRequestsOverall = 1_024
    /// Any date, in whole seconds since 1970 UTC: the years 1 to 9999, what calendars compute with.
    public static let secondsSince1970: ClosedRange<Int64> = -62_135_596_800...253_402_300_799
}
