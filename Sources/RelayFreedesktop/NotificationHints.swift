public import Foundation
public import RelayCore

/// The hints of a `Notify` call (freedesktop notification spec 1.2, "Hints") that Relay
/// uses, decoded (`NotificationHints(entries:)` in RelayFreedesktopDBus reads them from the bus,
/// leniently: anything unusable is dropped with a note in ``notes``).
public struct NotificationHints: Sendable, Hashable {
    /// How urgent the notification is.
    public enum Urgency: UInt8, Sendable, Hashable {
        /// Low urgency: no alert.
        case low = 0
        /// Normal urgency.
        case normal = 1
        /// Critical: always alerts.
        case critical = 2
    }

    /// A raw image from `image-data` (`(iiibiiay)`).
    public struct ImageData: Sendable, Hashable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Bytes per row.
        public var rowStride: Int
        /// Whether a fourth (alpha) channel is present.
        public var hasAlpha: Bool
        /// Bits per sample; always 8 in practice.
        public var bitsPerSample: Int
        /// 3 (RGB) or 4 (RGBA).
        public var channels: Int
        /// The pixel bytes.
        public var data: Data

        /// Creates an image from its parts, as they were validated.
        public init(width: Int, height: Int, rowStride: Int, hasAlpha: Bool, bitsPerSample: Int, channels: Int, data: Data) {
            self.width = width
            self.height = height
            self.rowStride = rowStride
            self.hasAlpha = hasAlpha
            self.bitsPerSample = bitsPerSample
            self.channels = channels
            self.data = data
        }
    }

    /// `urgency`.
    public var urgency: Urgency = .normal
    /// `category`, such as `email.arrived`.
    public var category: String?
    /// `desktop-entry`: the posting app's desktop file name, its identity.
    public var desktopEntry: String?
    /// `image-path` (also the older `image_path`).
    public var imagePath: String?
    /// `image-data` (also `image_data` and `icon_data`), validated.
    public var imageData: ImageData?
    /// `sound-name`.
    public var soundName: String?
    /// `suppress-sound`.
    public var suppressSound = false
    /// `transient`: not kept in history.
    public var transient = false
    /// `resident`: not removed when an action is invoked.
    public var resident = false
    /// `x-kde-reply-placeholder-text`: asks for an inline reply with this placeholder.
    public var replyPlaceholder: String?
    /// `x-relay-interruption-level`: the level itself (`passive`, `active`, `time-sensitive`,
    /// `critical`), over what the urgency says; the only way to time-sensitive from `Notify`.
    public var interruptionLevel: InterruptionLevel?
    /// Why some hints were ignored, for the log.
    public var notes: [String] = []

    /// The largest `image-data` accepted, in bytes; bigger images are dropped.
    public static let maximumImageBytes = 4 * 1024 * 1024

    /// An empty set of hints.
    public init() {}
}
